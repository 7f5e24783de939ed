// Builds pooltutor's light page front end (src/light.js and its stylesheets) into the
// pooltutor-light Voila template's static folder: `npm ci && npm run build`.
//
// The script and stylesheet start with the SHA-256 of the sources (src/*, package.json,
// package-lock.json, this file), which tests/course/test_light_page.py checks, so that
// a change to the sources without a rebuild fails the tests.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "pooltutor", "course", "voila_templates", "voila",
                 "templates", "pooltutor-light", "static");

export function sourcesDigest() {
  const files = [
    ...readdirSync(join(here, "src")).sort().map((name) => join("src", name)),
    "package.json", "package-lock.json", "build.mjs",
  ];
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file + "\0");
    hash.update(readFileSync(join(here, file)).toString("utf8").replace(/\r\n/g, "\n"));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const banner = `/* pooltutor light page: built from js/light-page (sources sha256 ${sourcesDigest()}) */`;

await esbuild.build({
  entryPoints: [join(here, "src", "light.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outdir: out,
  legalComments: "linked",
  // only woff2 fonts are kept (every browser that runs ipywidgets 8 reads them; the
  // stylesheets list woff2 first, so the other formats are never asked for)
  loader: { ".woff2": "file", ".woff": "empty", ".ttf": "empty", ".eot": "empty", ".svg": "empty" },
  assetNames: "[name]",
  banner: { js: banner, css: banner },
  logLevel: "warning",
});
