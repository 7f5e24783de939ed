/* pooltutor's widgets, named for screen readers and keyboards: included in the Voila
   page (index.html.j2) and in every exported deck (pooltutor/slides.py).

   ipywidgets renders some controls without an accessible name; this names them from
   what the page already says, and keeps the names current as the widgets change:
   - a slider's handle (role="slider") gets the slider's description as aria-label;
   - a Play widget's icon-only buttons get "play", "pause", "stop", "repeat";
   - an explorer's picture (an <img> of an Image widget) gets as alt the description
     the explorer writes beside it (a visually hidden .pooltutor-alt widget, updated
     with every picture); a frame of a kernel-free explorer gets its caption's first
     line;
   - a text box that scrolls (a long explain() text) can take the keyboard focus;
   - every control of the widgets shows where the keyboard focus is: a 3 px outline in
     FOCUS_COLOUR (#0b57d0: contrast 6.4:1 on white, 4.5:1 on the grey #d9d9d9 of a
     slider's track; WCAG 2.1 SC 1.4.11 and 2.4.7 ask for 3:1), 2 px outside the
     control, on the controls that ipywidgets leaves without one (slider handles,
     dropdowns, text boxes) and the ones whose light-blue ring is too faint (buttons:
     #64b5f6 on white is 2.2:1). */
(function () {
  "use strict";
  var ICONS = {"fa-play": "play", "fa-pause": "pause", "fa-stop": "stop",
               "fa-retweet": "repeat", "fa-repeat": "repeat"};

  var FOCUS_COLOUR = "#0b57d0";
  var FOCUS_CSS = [
    ".jupyter-widgets :is(button, select, input, textarea, [role=slider],",
    "  [contenteditable=true], [tabindex]):focus-visible,",
    ".jupyter-widgets :is(select, input, textarea):focus {",
    "  outline: 3px solid " + FOCUS_COLOUR + " !important;",
    "  outline-offset: 2px !important;",
    "}"].join("\n");

  function addFocusStyle() {
    if (document.getElementById("pooltutor-focus-style") || !document.head) { return; }
    var style = document.createElement("style");
    style.id = "pooltutor-focus-style";
    style.textContent = FOCUS_CSS;
    document.head.appendChild(style);
  }

  function text(el) { return (el && el.textContent || "").replace(/\s+/g, " ").trim(); }

  function setAttr(el, name, value) {
    if (value && el.getAttribute(name) !== value) { el.setAttribute(name, value); }
  }

  function nameSliders(root) {
    root.querySelectorAll(".widget-slider, .jupyter-widget-slider").forEach(function (w) {
      var label = text(w.querySelector(".widget-label"));
      w.querySelectorAll("[role=slider]").forEach(function (handle) {
        setAttr(handle, "aria-label", label || "slider");
      });
    });
  }

  function nameButtons(root) {
    root.querySelectorAll("button").forEach(function (b) {
      if (text(b) || b.getAttribute("aria-label")) { return; }
      var icon = b.querySelector("i");
      var name = null;
      if (icon) {
        Object.keys(ICONS).forEach(function (cls) {
          if (icon.classList.contains(cls)) { name = ICONS[cls]; }
        });
      }
      setAttr(b, "aria-label", name || b.getAttribute("title") || "button");
      if (icon) { icon.setAttribute("aria-hidden", "true"); }
    });
  }

  function describeImages(root) {
    root.querySelectorAll("img.widget-image, img.jupyter-widget-image").forEach(function (img) {
      var alt = null;
      var next = img.nextElementSibling;
      while (next && !alt) {
        var box = next.classList.contains("pooltutor-alt") ? next
          : next.querySelector && next.querySelector(".pooltutor-alt");
        if (box) { alt = text(box); }
        next = box ? null : next.nextElementSibling;
      }
      var stack = img.parentElement;
      if (!alt && stack && stack.classList.contains("widget-stack")) {
        var k = Array.prototype.indexOf.call(stack.children, img);
        var captions = stack.nextElementSibling;
        if (captions && captions.classList.contains("widget-stack") && captions.children[k]) {
          alt = (captions.children[k].textContent || "").trim().split("\n")[0];
        }
      }
      setAttr(img, "alt", alt || "a picture of the explorer");
    });
  }

  function focusableScrollers(root) {
    root.querySelectorAll(".widget-html-content pre, .widget-htmlmath-content pre")
      .forEach(function (pre) { setAttr(pre, "tabindex", "0"); });
  }

  var pending = false;
  function fix() {
    pending = false;
    var root = document.body;
    if (!root) { return; }
    addFocusStyle();
    nameSliders(root);
    nameButtons(root);
    describeImages(root);
    focusableScrollers(root);
  }
  function schedule() {
    if (!pending) { pending = true; window.setTimeout(fix, 50); }
  }
  new MutationObserver(schedule).observe(document.documentElement,
    {childList: true, subtree: true, characterData: true});
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fix);
  } else {
    fix();
  }
}());
