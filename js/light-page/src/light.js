/* pooltutor's light page front end: what a Voila page of pooltutor needs and nothing
   more.  Voila's own front end is a JupyterLab application (5.8 MB, 105 files for
   notebook 01); a class of 30 opening it at once on one machine spends most of the
   machine in the browsers.  This one (one script, one stylesheet, the fonts they use):

   - connects to the page's kernel (Voila started it, or took it from the preheated pool)
     with @jupyterlab/services, as Voila's widgets manager does;
   - is an ipywidgets 8 manager (@jupyter-widgets/base-manager) for the standard
     controls and the Output widget, fetching every widget's state from the kernel at
     once;
   - renders the cell outputs Voila put in the page (widget views, HTML, SVG, PNG,
     JPEG, plain text, streams, errors);
   - typesets the markdown's TeX with KaTeX;
   - shows the page when done, and on leaving asks Voila to shut the kernel down
     (as Voila's own front end does). */
import { KernelAPI, KernelConnection, ServerConnection } from "@jupyterlab/services";
import { ManagerBase } from "@jupyter-widgets/base-manager";
import * as base from "@jupyter-widgets/base";
import * as controls from "@jupyter-widgets/controls";
import { Widget } from "@lumino/widgets";
import renderMathInElement from "katex/contrib/auto-render";

import "@jupyter-widgets/controls/css/widgets-base.css";
import "katex/dist/katex.min.css";
import "./icons.css";
import "./page.css";

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
const CELL_OUTPUT = 'script[type="application/vnd.voila.cell-output+json"]';

class LightManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    kernel.registerCommTarget(this.comm_target_name, (comm, msg) => {
      this.handle_comm_open(new base.shims.services.Comm(comm), msg);
    });
  }

  async loadClass(className, moduleName, moduleVersion) {
    const modules = {
      "@jupyter-widgets/base": base,
      "@jupyter-widgets/controls": controls,
      "@jupyter-widgets/output": output,
    };
    const module = modules[moduleName];
    if (module === undefined || module[className] === undefined) {
      throw new Error(`pooltutor's page has no widget ${className} of ${moduleName}@${moduleVersion}`);
    }
    return module[className];
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: this.comm_target_name });
    return reply.content.status === "ok" ? reply.content.comms : {};
  }

  async display_view(view, el) {
    Widget.attach(view.luminoWidget, el);
  }

  loadFromKernel() {
    return this._loadFromKernel();
  }
}

/* ipywidgets' Output widget (``widgets.Output``, and so ``interact``): what the kernel
   prints or displays while a ``with out:`` block runs goes to the widget.  The kernel
   sets ``msg_id`` to the message it is answering; the page takes the outputs of that
   message (a message hook), adds them to ``outputs`` and sends them back, as JupyterLab's
   widget manager does. */
const OUTPUT_TYPES = new Set(["stream", "display_data", "execute_result", "error"]);

class OutputModel extends base.DOMWidgetModel {
  defaults() {
    return {
      ...super.defaults(),
      _model_name: "OutputModel",
      _model_module: "@jupyter-widgets/output",
      _model_module_version: "1.0.0",
      _view_name: "OutputView",
      _view_module: "@jupyter-widgets/output",
      _view_module_version: "1.0.0",
      msg_id: "",
      outputs: [],
    };
  }

  initialize(attributes, options) {
    super.initialize(attributes, options);
    this.clearOnNext = false;
    this.hook = null;
    this.on("change:msg_id", this.followMessage, this);
    this.followMessage();
  }

  followMessage() {
    const kernel = this.widget_manager.kernel;
    if (this.hook) {
      kernel.removeMessageHook(this.hook.id, this.hook.take);
      this.hook = null;
    }
    const id = this.get("msg_id");
    if (id && kernel) {
      const take = (msg) => { this.take(msg); return false; };
      kernel.registerMessageHook(id, take);
      this.hook = { id, take };
    }
  }

  take(msg) {
    const type = msg.header.msg_type;
    let outputs = this.get("outputs");
    if (type === "clear_output") {
      if (msg.content.wait) {
        this.clearOnNext = true;
        return;
      }
      outputs = [];
    } else if (OUTPUT_TYPES.has(type)) {
      if (this.clearOnNext) {
        outputs = [];
        this.clearOnNext = false;
      }
      outputs = [...outputs, { ...msg.content, output_type: type }];
    } else {
      return;
    }
    this.set("outputs", outputs);
    this.save_changes();
  }
}

class OutputView extends base.DOMWidgetView {
  render() {
    this.el.classList.add("jupyter-widgets-output-area", "widget-output");
    this.listenTo(this.model, "change:outputs", this.update);
    this.update();
  }

  async update() {
    // a newer update (the outputs changed again) stops this one
    const shown = (this.shown = (this.shown || 0) + 1);
    const outputs = this.model.get("outputs");
    const areas = outputs.map(() => document.createElement("div"));
    this.el.replaceChildren(...areas);
    for (let i = 0; i < outputs.length && shown === this.shown; i++) {
      areas[i].className = "jp-OutputArea-child";
      await renderOutput(outputs[i], this.model.widget_manager, areas[i]);
    }
  }
}

const output = { OutputModel, OutputView };

const ANSI = /\x1b\[[0-9;]*m/g;

function textBlock(text, className) {
  const pre = document.createElement("pre");
  pre.textContent = text.replace(ANSI, "");
  const div = document.createElement("div");
  div.className = `jp-RenderedText jp-OutputArea-output ${className || ""}`.trim();
  div.setAttribute("data-mime-type", "text/plain");
  div.appendChild(pre);
  return div;
}

async function renderOutput(output, manager, area) {
  const node = await outputNode(output, manager, area);
  if (node) {
    area.appendChild(node);
  }
}

async function outputNode(output, manager, area) {
  if (output.output_type === "stream") {
    return textBlock(Array.isArray(output.text) ? output.text.join("") : output.text,
                     output.name === "stderr" ? "jp-mod-stderr" : "");
  }
  if (output.output_type === "error") {
    return textBlock((output.traceback || [`${output.ename}: ${output.evalue}`]).join("\n"),
                     "jp-mod-stderr");
  }
  const data = output.data || {};
  const join = (v) => (Array.isArray(v) ? v.join("") : v);
  if (data[WIDGET_VIEW] && manager) {
    const modelId = data[WIDGET_VIEW].model_id;
    if (manager.has_model(modelId)) {
      const div = document.createElement("div");
      div.className = "jp-OutputArea-output";
      area.appendChild(div);
      const model = await manager.get_model(modelId);
      const view = await manager.create_view(model);
      await manager.display_view(view, div);
    } else {
      console.warn(`pooltutor: the kernel has no widget ${modelId}`);
    }
    return null;
  }
  if (data["text/html"] !== undefined) {
    const div = document.createElement("div");
    div.className = "jp-RenderedHTMLCommon jp-RenderedHTML jp-OutputArea-output";
    div.innerHTML = join(data["text/html"]);
    return div;
  }
  if (data["image/svg+xml"] !== undefined) {
    const div = document.createElement("div");
    div.className = "jp-RenderedSVG jp-OutputArea-output";
    div.innerHTML = join(data["image/svg+xml"]);
    return div;
  }
  for (const mime of ["image/png", "image/jpeg"]) {
    if (data[mime] !== undefined) {
      const div = document.createElement("div");
      div.className = "jp-RenderedImage jp-OutputArea-output";
      const img = document.createElement("img");
      img.src = `data:${mime};base64,${join(data[mime]).replace(/\n/g, "")}`;
      const meta = (output.metadata || {})[mime] || {};
      if (meta.width) { img.width = meta.width; }
      if (meta.height) { img.height = meta.height; }
      img.alt = join(data["text/plain"] || "");
      div.appendChild(img);
      return div;
    }
  }
  if (data["text/plain"] !== undefined) {
    return textBlock(join(data["text/plain"]));
  }
  return null;
}

/* Each output's place in the page, the output and whether it shows a widget. */
function outputPlaces() {
  return Array.from(document.querySelectorAll(CELL_OUTPUT)).map((script) => {
    const area = document.createElement("div");
    area.className = "jp-OutputArea-child";
    script.replaceWith(area);
    let output = null;
    try {
      output = JSON.parse(script.textContent);
    } catch (error) {
      console.error("pooltutor: an output could not be read", error);
    }
    const widget = Boolean(output && output.data && output.data[WIDGET_VIEW]);
    return { area, output, widget };
  });
}

/* Show the outputs of ``places``: with ``manager`` null, the outputs without widgets
   (the text and pictures are on screen before the kernel answers); with the kernel's
   widget manager, the widgets' views. */
async function renderOutputs(places, manager) {
  for (const { area, output, widget } of places) {
    if (output === null || widget !== Boolean(manager)) { continue; }
    try {
      await renderOutput(output, manager, area);
    } catch (error) {
      console.error("pooltutor: an output could not be shown", error);
    }
  }
}

function typeset() {
  const root = document.getElementById("rendered_cells");
  if (!root) { return; }
  try {
    renderMathInElement(root, {
      delimiters: [
        { left: "$$", right: "$$", display: true },
        { left: "\\[", right: "\\]", display: true },
        { left: "$", right: "$", display: false },
        { left: "\\(", right: "\\)", display: false },
      ],
      ignoredClasses: ["jp-OutputArea-output"],
      throwOnError: false,
    });
  } catch (error) {
    console.error("pooltutor: the formulas could not be typeset", error);
  }
}

function showCells() {
  const spinner = document.getElementById("loading");
  if (spinner) { spinner.remove(); }
  const cells = document.getElementById("rendered_cells");
  if (cells) { cells.style.display = ""; }
}

async function connect() {
  const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  const settings = ServerConnection.makeSettings({ baseUrl: config.baseUrl });
  const model = await KernelAPI.getKernelModel(config.kernelId, settings);
  if (!model) {
    throw new Error(`the page's kernel ${config.kernelId} is gone`);
  }
  const kernel = new KernelConnection({ model, serverSettings: settings });
  window.addEventListener("beforeunload", () => {
    const form = new FormData();
    const xsrf = document.cookie.match("\\b_xsrf=([^;]*)\\b");
    form.append("_xsrf", (xsrf && xsrf[1]) || "");
    navigator.sendBeacon(`${config.baseUrl}voila/api/shutdown/${kernel.id}`, form);
    kernel.dispose();
  });
  const manager = new LightManager(kernel);
  await manager.loadFromKernel();
  return manager;
}

async function main() {
  const places = outputPlaces();
  await renderOutputs(places, null);
  typeset();
  showCells();
  let manager = null;
  try {
    manager = await connect();
  } catch (error) {
    // the page keeps its text and pictures without widgets; pooltutor's status line says
    // the server is busy and to reload
    console.error("pooltutor: no kernel for this page", error);
  }
  if (manager) {
    await renderOutputs(places, manager);
  }
  window.pooltutorPage = { manager };
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", main);
} else {
  main();
}
