// The layout explorer's test: serves the built page (scripts/build-explorer)
// on localhost, drives Debian's headless Chromium through playwright-core,
// and checks that what the page shows is what the tilecheck command prints
// for the same input, run here beside it:
//   - every catalogue layout (the command's, `tilecheck vectors --catalog`):
//     the size report (`size --model xla`), the tiled shape level by level
//     (`explain --json`), for the first and the last element the index
//     (`index`) and the derivation (`explain`), for the first and the last
//     position `delinearize`, and the
//     memory map: the SVG bytes `draw --svg` writes, or, for a layout too
//     large for it, the reason and the text view `draw` prints;
//   - malformed layouts (the catalogue's parse tests that must be rejected,
//     and hostile ones: huge, deep, long): the command's error, with a caret
//     at the column it names, answered without a hang;
//   - the comparison of two layouts (`bitcast`), clicks on the memory map,
//     and a view restored from its URL;
//   - no console error and no page exception, anywhere.
// Writes a screenshot of the page, prints the time to the first answer and
// the size of tilecheck.js, and exits 1 when any check fails.
//
// usage: node explorer_test.js SITE_DIR TILECHECK [SCREENSHOT.png]
// (playwright-core found through NODE_PATH; TILECHECK_CHROMIUM names the
// browser, /usr/bin/chromium by default.)
"use strict";

const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const zlib = require("zlib");
const { execFile, spawnSync } = require("child_process");
const { chromium } = require("playwright-core");

const [site, tilecheck, screenshot] = process.argv.slice(2);
if (!site || !tilecheck) {
  console.error("usage: node explorer_test.js SITE_DIR TILECHECK [SCREENSHOT.png]");
  process.exit(2);
}

let checks = 0;
const failures = [];
function expectEqual(what, shown, expected) {
  checks += 1;
  if (shown !== expected) {
    failures.push(what + ":\n  the page shows " + JSON.stringify(shown) + "\n  tilecheck prints " + JSON.stringify(expected));
  }
}
function expectTrue(what, ok) {
  checks += 1;
  if (!ok) failures.push(what);
}

function run(args) {
  const r = spawnSync(tilecheck, args, { encoding: "utf8", maxBuffer: 1 << 28, env: quick });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}
// Several commands at once (each is a process start, most of its time in
// a sanitizer build): {key: args} -> {key: result}.
let running = 0;
const waiting = [];
// Without LeakSanitizer's scan at exit, which a sanitizer build's every run pays.
const quick = Object.assign({}, process.env, {
  ASAN_OPTIONS: (process.env.ASAN_OPTIONS ? process.env.ASAN_OPTIONS + ":" : "") + "detect_leaks=0",
});
function runOne(args) {
  return new Promise((resolve, reject) => {
    const start = () => {
      running += 1;
      execFile(tilecheck, args, { encoding: "utf8", maxBuffer: 1 << 28, env: quick }, (error, out, err) => {
        running -= 1;
        if (waiting.length) waiting.shift()();
        if (error && typeof error.code !== "number") reject(error);
        else resolve({ code: error ? error.code : 0, out, err });
      });
    };
    if (running < 4) start(); else waiting.push(start);
  });
}
async function runAll(commands) {
  const keys = Object.keys(commands);
  const results = await Promise.all(keys.map((k) => runOne(commands[k])));
  return Object.fromEntries(keys.map((k, i) => [k, results[i]]));
}
// The message of the command's one `error:` line.
function errorOf(result) {
  const m = /^error: (.*)\n/.exec(result.err);
  return m ? m[1] : "(no error line: exit " + result.code + ", stderr " + JSON.stringify(result.err) + ")";
}
// What the page shows for a result: its stdout, or its error.
function shownFor(result) {
  return result.code === 0 || (result.code === 1 && result.out !== "") ? result.out : errorOf(result);
}

// ------------------------------------------------------------------ server

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
function serve(root) {
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
    const file = path.join(root, name === "/" ? "index.html" : name);
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// ------------------------------------------------------------------ the page

async function text(page, selector) {
  return page.$eval(selector, (node) => (node.hidden ? null : node.textContent));
}

// Types into the inputs (id -> value) and waits until the page has answered
// them all; every answer must come within the timeout, hostile input too.
async function enter(page, values) {
  for (const [id, value] of Object.entries(values)) await page.fill("#" + id, value);
  await page.waitForFunction((values) => Object.entries(values).every(([id, value]) =>
    document.getElementById(id).value === value && document.getElementById(id).dataset.answered === value),
    values, { timeout: 10000 });
}

// The page's error for a layout: the message, then the text and a caret.
function checkError(what, shown, message, layoutText) {
  const column = /column (\d+):/.exec(message);
  let expected = message;
  if (column && layoutText.length < 200) {
    expected += "\n\n" + layoutText + "\n" + " ".repeat(Number(column[1]) - 1) + "^";
  }
  expectEqual(what, shown, expected);
}

async function checkLayout(page, layout, tmp) {
  const file = path.join(tmp, "layout.svg");
  fs.rmSync(file, { force: true });
  const [{ size }] = await Promise.all([runAll({ size: ["size", "--model", "xla", layout] }), enter(page, { layout })]);
  if (size.code !== 0) {
    checkError(layout + ": the layout's error", await text(page, "#layout-error"), errorOf(size), layout);
    return "error";
  }
  expectEqual(layout + ": size", await text(page, "#size"), size.out);
  const { draw, svg } = await runAll({ draw: ["draw", layout], svg: ["draw", layout, "--svg", file] });
  if (draw.code !== 0) {
    // Not one array the spec maps (a tuple, or what only the size models).
    const arrayError = await text(page, "#array-error");
    if (arrayError !== null) checkError(layout + ": the array's error", arrayError, errorOf(draw), layout);
    else expectTrue(layout + ": a tuple lists its arrays", (await text(page, "#leaves")) !== null);
    return "sized";
  }
  const dims = dimsOf(layout);
  const padded = Number(/^padded elements +(\d+)/m.exec(size.out)[1]);
  const elements = dims.reduce((a, b) => a * b, 1);

  // The first and the last element, the first and the last position.
  const pick = (f) => dims.map((d) => Math.max(0, f(d))).join(",");
  const chosen = elements > 0 ? [pick(() => 0), pick((d) => d - 1)] : [dims.map(() => 0).join(",")];
  const positions = [0, padded - 1].filter((p, i, all) => all.indexOf(p) === i).map(String);
  const commands = {};
  if (elements > 0) commands.trace = ["explain", "--json", layout, dims.map(() => 0).join(",")];
  for (const e of chosen) {
    commands["index " + e] = ["index", layout, e];
    commands["explain " + e] = ["explain", layout, e];
  }
  for (const p of positions) commands["delinearize " + p] = ["delinearize", layout, p];
  const expected = await runAll(commands);

  // The tiled shape level by level, from explain's trace of the first element.
  if (elements > 0) {
    const trace = JSON.parse(expected.trace.out);
    const rows = await page.$$eval("#levels tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    const shown = rows.filter((r) => r[0].startsWith("level ")).map((r) => r[1] + " " + r[2]);
    const levels = trace.levels.map((l) => l.tile + " (" + l.bounds_after.join(",") + ")");
    expectEqual(layout + ": the levels", JSON.stringify(shown), JSON.stringify(levels));
  }
  for (let k = 0; k < Math.max(chosen.length, positions.length); ++k) {
    const element = chosen[Math.min(k, chosen.length - 1)];
    const position = positions[Math.min(k, positions.length - 1)];
    await enter(page, { element, position });
    expectEqual(layout + ": index " + element, await text(page, "#index"), shownFor(expected["index " + element]));
    const explain = expected["explain " + element];
    expectEqual(layout + ": explain " + element, await text(page, "#explain"), explain.code === 0 ? explain.out : "");
    expectEqual(layout + ": delinearize " + position, await text(page, "#delinearize"),
      shownFor(expected["delinearize " + position]));
  }

  // The memory map.
  if (svg.code === 0) {
    const href = await page.$eval("#svg-download", (a) => a.getAttribute("href"));
    const prefix = "data:image/svg+xml;charset=utf-8,";
    const written = fs.readFileSync(file, "utf8");
    expectEqual(layout + ": the SVG", href.startsWith(prefix) ? decodeURIComponent(href.slice(prefix.length)) : href, written);
    const rects = await page.$$eval("#drawing svg rect", (r) => r.length);
    expectEqual(layout + ": the SVG's rectangles in the page", rects, (written.match(/<rect /g) || []).length);
    return "drawn";
  }
  expectEqual(layout + ": why there is no SVG", await text(page, "#drawing-note"), errorOf(svg));
  expectEqual(layout + ": the text view", await text(page, "#drawing-text"), draw.out);
  return "text";
}

// The dims of an array's text (canonical, as the catalogue's): "f32[3,<=5]{..}" -> [3,5].
function dimsOf(layout) {
  const body = /\[([^\]]*)\]/.exec(layout)[1];
  return body === "" ? [] : body.split(",").map((d) => Number(d.replace("<=", "")));
}

async function main() {
  const started = Date.now();
  const siteDir = fs.realpathSync(site);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "explorer-test-"));
  const server = await serve(siteDir);
  const url = "http://127.0.0.1:" + server.address().port + "/index.html";
  const browser = await chromium.launch({
    executablePath: process.env.TILECHECK_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    // Root needs --no-sandbox; the others keep Chromium off the network.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const problems = [];
  const newPage = async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push("console " + m.type() + ": " + m.text()); });
    page.on("pageerror", (e) => problems.push("page exception: " + e.message));
    return page;
  };
  try {
    // Time to the first answer, on a fresh page.
    let page = await newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.explorerTimings && window.explorerTimings.firstAnswer !== null);
    const timings = await page.evaluate(() => window.explorerTimings);

    // The catalogue: the command's, and the page's list of it.
    const vectors = JSON.parse(run(["vectors", "--catalog", "--count", "0"]).out);
    // Its layouts, and the smaller ones on the same tiles its vectors add
    // (named NAME/smaller), which fit the SVG more often.
    const groups = vectors.testGroups.filter((g) => g.type === "LayoutTest");
    const catalogue = groups.filter((g) => !g.id.includes("/")).map((g) => g.layout);
    const listed = await page.$$eval("#catalogue-list button", (b) => b.map((x) => x.dataset.name + " " + x.textContent));
    expectEqual("the catalogue listed", JSON.stringify(listed),
      JSON.stringify(groups.filter((g) => !g.id.includes("/")).map((g) => g.id + " " + g.layout)));
    const kinds = {};
    for (const layout of groups.map((g) => g.layout)) {
      const kind = await checkLayout(page, layout, tmp);
      kinds[kind] = (kinds[kind] || 0) + 1;
    }

    // A click on the catalogue loads the layout.
    await page.click('#catalogue-list button >> nth=0');
    await page.waitForFunction((t) => document.getElementById("layout").dataset.answered === t, catalogue[0]);
    expectEqual("a click on the catalogue", await page.$eval("#layout", (i) => i.value), catalogue[0]);

    // Malformed layouts.
    const invalid = vectors.testGroups.filter((g) => g.type === "ParseTest")
      .flatMap((g) => g.tests).filter((t) => t.result === "invalid").map((t) => t.text);
    const hostile = [
      "", "f32[3,5]{1,0:T(2,2)", "f32[3,5]{1,0:T(2,2)}x", "f32[3,5]{1,0:T(0,2)}",
      "f32[" + "9".repeat(40) + "]", "(".repeat(100000), "f32[" + "1,".repeat(50000) + "1]{}",
      "f32[9223372036854775807,9223372036854775807]{1,0:T(8,128)}",
      "bf16[1000000,1000000]{1,0:T(8,128)(2,1)}", "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
      "(f32[2,3]{1,0:T(2,2)}, s8[5]{0})",
    ];
    const malformed = {};
    for (const layout of [...invalid, ...hostile]) {
      const kind = await checkLayout(page, layout, tmp);
      malformed[kind] = (malformed[kind] || 0) + 1;
    }
    expectTrue("a malformed layout shows an error", malformed.error > 0);

    // Two layouts compared.
    const pairs = [
      ["f32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}", ""],
      ["f32[3,5]{1,0:T(2,2)}", "f32[15]{0}", ""],
      ["f32[4,8]{1,0}", "f32[32]{0}", ""],
      ["f32[3,5]{1,0}", "f32[5,3]{0,1}", "1,0"],
      ["bf16[16,128]{1,0:T(8,128)(2,1)}", "bf16[2048]{0:T(1024)(2,1)}", ""],
      ["f32[3,5]{1,0:T(2,2)}", "f32[3,5", ""],
      ["f32[3,5]{1,0}", "f32[5,3]{0,1}", "0,0"],
    ];
    await enter(page, { layout: catalogue[0] });
    for (const [a, b, t] of pairs) {
      await enter(page, { layout: a, "layout-b": b, transpose: t });
      const args = ["bitcast", a, b, ...(t ? ["--transpose", t] : [])];
      expectEqual("bitcast " + args.slice(1).join(" "), await text(page, "#bitcast"), shownFor(run(args)));
    }

    // A click on an element of the memory map selects it and its position.
    await enter(page, { layout: "f32[3,5]{1,0:T(2,2)}", "layout-b": "", transpose: "" });
    await page.click('#drawing text[data-element="1,3"]');
    const index = run(["index", "f32[3,5]{1,0:T(2,2)}", "1,3"]).out.trim();
    expectEqual("a click on element 1,3", await page.$eval("#element", (i) => i.value), "1,3");
    expectEqual("its position", await page.$eval("#position", (i) => i.value), index);
    expectTrue("its position highlighted",
      await page.$eval('#drawing rect[data-position="' + index + '"]', (r) => r.classList.contains("hl")));
    expectTrue("the click is in the URL", (await page.evaluate(() => location.hash)).includes("e=1%2C3"));

    // A view restored from its URL.
    const state = { l: "bf16[8,256]{1,0:T(8,128)(2,1)}", e: "3,130", p: "517", b: "bf16[2048]{0}", t: "" };
    const hash = "#" + new URLSearchParams(Object.entries(state).filter(([, v]) => v !== "")).toString();
    const restored = await newPage();
    await restored.goto(url + hash);
    await restored.waitForFunction((l) => document.getElementById("layout").dataset.answered === l, state.l);
    expectEqual("restored layout", await restored.$eval("#layout", (i) => i.value), state.l);
    expectEqual("restored index", await text(restored, "#index"), run(["index", state.l, state.e]).out);
    expectEqual("restored explain", await text(restored, "#explain"), run(["explain", state.l, state.e]).out);
    expectEqual("restored delinearize", await text(restored, "#delinearize"), run(["delinearize", state.l, state.p]).out);
    expectEqual("restored bitcast", await text(restored, "#bitcast"), run(["bitcast", state.l, state.b]).out);

    // The screenshot: a two-level bf16 layout, an element chosen, and the
    // comparison with its transposed layout.
    if (screenshot) {
      const shot = await newPage();
      const view = { l: "bf16[5,12]{1,0:T(2,8)(2,1)}", e: "3,9", p: "51", b: "bf16[5,12]{0,1:T(2,8)(2,1)}" };
      await shot.goto(url + "#" + new URLSearchParams(view).toString());
      await shot.waitForFunction(() => document.getElementById("layout").dataset.answered !== undefined);
      await shot.screenshot({ path: screenshot, fullPage: true });
    }

    for (const p of problems) failures.push(p);
    const raw = fs.readFileSync(path.join(siteDir, "tilecheck.js"));
    const gz = zlib.gzipSync(raw, { level: 9 }).length;
    console.log("explorer_test: catalogue " + catalogue.length + " layouts and " + (groups.length - catalogue.length) +
      " smaller ones (" + JSON.stringify(kinds) + "), " +
      (invalid.length + hostile.length) + " malformed or hostile (" + JSON.stringify(malformed) + "), " +
      pairs.length + " comparisons");
    console.log("explorer_test: first answer " + timings.firstAnswer.toFixed(0) + " ms after navigation start (spec ready at " +
      timings.ready.toFixed(0) + " ms); tilecheck.js " + raw.length + " bytes, " + gz + " gzip -9");
    console.log("explorer_test: " + checks + " checks, " + failures.length + " failed, " +
      ((Date.now() - started) / 1000).toFixed(1) + " s");
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  // Every failure on a line, then the first ones in full.
  for (const f of failures) console.log("FAIL " + f.split("\n")[0]);
  for (const f of failures.slice(0, 10)) console.log("\n" + f);
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error("explorer_test: " + (e.stack || e));
  process.exit(1);
});
