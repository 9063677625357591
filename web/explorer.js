// The layout explorer's page: reads the inputs, asks the spec (tilecheck.js,
// web/explorer.cc compiled to WebAssembly) and shows its answers, which are
// the bytes the tilecheck command prints. The state lives in the URL's hash
// (#l=LAYOUT&e=ELEMENT&p=POSITION&b=SECOND&t=TRANSPOSE), so a link shows
// the same view.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const fields = { l: "layout", e: "element", p: "position", b: "layout-b", t: "transpose" };
  const timings = { start: performance.now(), ready: null, firstAnswer: null };
  window.explorerTimings = timings;
  let spec = null;          // the wasm's entry points
  let current = null;       // the last answer for the layout box
  let pinned = null;        // {kind: "element"|"position", value: text} kept by a click

  function call(name, ...args) {
    return JSON.parse(spec[name](...args));
  }

  // The error, with a caret under its column when the spec names one.
  function showError(pre, text, error) {
    const column = /column (\d+):/.exec(error);
    let shown = error;
    if (column && text.length < 200) {
      shown += "\n\n" + text + "\n" + " ".repeat(Number(column[1]) - 1) + "^";
    }
    pre.textContent = shown;
    pre.hidden = false;
  }

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    for (const [key, id] of Object.entries(fields)) {
      if (params.has(key)) $(id).value = params.get(key);
    }
  }

  function writeHash() {
    const params = new URLSearchParams();
    for (const [key, id] of Object.entries(fields)) {
      if ($(id).value !== "") params.set(key, $(id).value);
    }
    const hash = "#" + params.toString();
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  // ----------------------------------------------------------------- layout

  function showLevels(answer) {
    const table = $("levels");
    table.replaceChildren();
    const row = (cells, head) => {
      const tr = document.createElement("tr");
      for (const cell of cells) {
        const td = document.createElement(head ? "th" : "td");
        td.textContent = cell;
        tr.appendChild(td);
      }
      table.appendChild(tr);
    };
    if (!answer.dims) return;
    row(["", "tile", "shape"], true);
    row(["logical", "", "[" + answer.dims.join(",") + "]"]);
    if (answer.physical_bounds) {
      row(["physical", "", "(" + answer.physical_bounds.join(",") + ")"]);
      answer.levels.forEach((level, k) =>
        row(["level " + (k + 1), level.tile, "(" + level.bounds.join(",") + ")"]));
    }
    row(["tiled shape", "", "(" + answer.tiled_shape.join(",") + ")"]);
    row(["positions", "", String(answer.padded) + " (" + (answer.padded - answer.elements) + " padding)"]);
  }

  function showDrawing(container, note, textView, drawing, download) {
    container.innerHTML = drawing.svg ? drawing.svg.replace(/^<\?xml[^>]*>\s*/, "") : "";
    if (note) {
      note.hidden = !drawing.drawing_note;
      note.textContent = drawing.drawing_note || "";
    }
    if (textView) {
      textView.hidden = !drawing.drawing_text;
      textView.textContent = drawing.drawing_text || "";
    }
    if (download) {
      download.hidden = !drawing.svg;
      download.href = drawing.svg ? "data:image/svg+xml;charset=utf-8," + encodeURIComponent(drawing.svg) : "";
    }
  }

  function updateLayout() {
    const text = $("layout").value;
    const answer = call("tc_layout", text);
    current = answer.ok ? Object.assign({ text }, answer) : null;
    $("layout-error").hidden = true;
    $("array-error").hidden = true;
    if (!answer.ok) {
      showError($("layout-error"), text, answer.error);
      $("answers").hidden = true;
    } else {
      $("answers").hidden = false;
      $("size").textContent = answer.size;
      showLevels(answer);
      $("leaves").hidden = answer.array;
      if (!answer.array) {
        $("leaves").replaceChildren("A tuple: its arrays are ");
        answer.leaves.forEach((leaf, k) => {
          const a = document.createElement("a");
          a.href = "#";
          a.textContent = leaf.shape;
          a.addEventListener("click", (event) => {
            event.preventDefault();
            $("layout").value = leaf.shape;
            update();
          });
          $("leaves").append(k ? ", " : "", a);
        });
      }
      const hasArray = answer.array && !answer.array_error;
      $("array-answers").hidden = !hasArray;
      if (answer.array_error) showError($("array-error"), text, answer.array_error);
      if (hasArray) {
        showDrawing($("drawing"), $("drawing-note"), $("drawing-text"), answer, $("svg-download"));
        if ($("element").value === "" && answer.elements > 0) {
          $("element").value = answer.dims.map(() => 0).join(",");
        }
        if ($("position").value === "") $("position").value = "0";
      }
    }
  }

  // -------------------------------------------------- element and position

  function clearHighlights(root) {
    for (const node of root.querySelectorAll(".hl")) node.classList.remove("hl");
  }

  function highlight(root, selector) {
    for (const node of root.querySelectorAll(selector)) node.classList.add("hl");
  }

  function showElement(elementText) {
    if (!current || !current.array || current.array_error) return;
    const answer = call("tc_element", current.text, elementText);
    clearHighlights($("drawing"));
    if (!answer.ok) {
      $("index").textContent = answer.error;
      $("index").classList.add("error");
      $("explain").textContent = "";
      return;
    }
    $("index").classList.remove("error");
    $("index").textContent = answer.index_text;
    $("explain").textContent = answer.explain;
    highlight($("drawing"), '[data-element="' + answer.element.join(",") + '"]');
    highlight($("drawing"), '[data-position="' + answer.index + '"]');
  }

  function showPosition(positionText) {
    if (!current || !current.array || current.array_error) return;
    const answer = call("tc_position", current.text, positionText);
    if (!answer.ok) {
      $("delinearize").textContent = answer.error;
      $("delinearize").classList.add("error");
      return;
    }
    $("delinearize").classList.remove("error");
    $("delinearize").textContent = answer.text;
    highlight($("drawing"), '[data-position="' + answer.position + '"]');
    if (answer.element) highlight($("drawing"), '[data-element="' + answer.element.join(",") + '"]');
  }

  function updateSelection() {
    showElement($("element").value);
    showPosition($("position").value);
  }

  // Pointing at the memory map: an element cell or a position cell.
  function target(event) {
    const node = event.target.closest("[data-element],[data-position]");
    if (!node) return null;
    if (node.dataset.element !== undefined) return { kind: "element", value: node.dataset.element };
    return { kind: "position", value: node.dataset.position };
  }

  function point(hit) {
    if (!hit) return;
    if (hit.kind === "element") {
      showElement(hit.value);
      const index = call("tc_element", current.text, hit.value);
      if (index.ok) {
        $("delinearize").textContent = call("tc_position", current.text, String(index.index)).text;
      }
    } else {
      const answer = call("tc_position", current.text, hit.value);
      if (answer.ok && answer.element) {
        showElement(answer.element.join(","));
      } else {
        clearHighlights($("drawing"));
        highlight($("drawing"), '[data-position="' + hit.value + '"]');
      }
      if (answer.ok) $("delinearize").textContent = answer.text;
    }
  }

  $("drawing").addEventListener("mouseover", (event) => point(target(event)));
  $("drawing").addEventListener("mouseleave", () => updateSelection());
  $("drawing").addEventListener("click", (event) => {
    const hit = target(event);
    if (!hit) return;
    if (hit.kind === "element") {
      $("element").value = hit.value;
      const answer = call("tc_element", current.text, hit.value);
      if (answer.ok) $("position").value = String(answer.index);
    } else {
      $("position").value = hit.value;
      const answer = call("tc_position", current.text, hit.value);
      if (answer.ok && answer.element) $("element").value = answer.element.join(",");
    }
    updateSelection();
    writeHash();
  });

  // ---------------------------------------------------------------- compare

  // Where the element of the first layout goes in the second: the same
  // row-major number (a reshape), or permuted (a transpose).
  function mapped(element, fromDims, toDims, perm) {
    if (perm) return perm.map((p) => element[p]);
    let n = 0;
    element.forEach((e, i) => { n = n * fromDims[i] + e; });
    const out = new Array(toDims.length);
    for (let i = toDims.length - 1; i >= 0; --i) {
      out[i] = n % toDims[i];
      n = Math.floor(n / toDims[i]);
    }
    return out;
  }

  let comparison = null;

  function updateCompare() {
    const from = $("layout").value, to = $("layout-b").value, perm = $("transpose").value;
    comparison = null;
    $("relayout").hidden = true;
    if (to === "") {
      $("bitcast").hidden = true;
      return;
    }
    const answer = call("tc_bitcast", from, to, perm);
    $("bitcast").hidden = false;
    $("bitcast").classList.toggle("error", !answer.ok);
    $("bitcast").classList.toggle("verdict-no", answer.ok && !answer.bitcast);
    $("bitcast").classList.toggle("verdict-yes", answer.ok && answer.bitcast);
    if (!answer.ok) {
      $("bitcast").textContent = answer.error;
      return;
    }
    $("bitcast").textContent = answer.text;
    $("relayout").hidden = false;
    showDrawing($("relayout-a"), null, null, answer.from_drawing, null);
    showDrawing($("relayout-b"), null, null, answer.to_drawing, null);
    for (const [side, drawing] of [["relayout-a", answer.from_drawing], ["relayout-b", answer.to_drawing]]) {
      if (!drawing.svg) $(side).textContent = drawing.drawing_note;
    }
    comparison = { from, to, perm: perm === "" ? null : perm.split(",").map(Number) };
    const a = call("tc_layout", from), b = call("tc_layout", to);
    comparison.fromDims = a.dims;
    comparison.toDims = b.dims;
    if (answer.first_moved) {
      highlight($("relayout-a"), '[data-position="' + answer.first_moved.from_position + '"]');
      highlight($("relayout-b"), '[data-position="' + answer.first_moved.to_position + '"]');
      highlight($("relayout-b"), '[data-element="' + answer.first_moved.to_element.join(",") + '"]');
      highlight($("relayout-a"), '[data-element="' + answer.first_moved.from_element.join(",") + '"]');
    }
  }

  // Pointing at the first layout's map shows where its element lands in the second.
  $("relayout-a").addEventListener("mouseover", (event) => {
    const hit = target(event);
    if (!hit || !comparison || !comparison.fromDims || !comparison.toDims) return;
    let element = hit.kind === "element" ? hit.value.split(",").filter((s) => s !== "").map(Number) : null;
    if (!element) {
      const at = call("tc_position", comparison.from, hit.value);
      if (!at.ok || !at.element) return;
      element = at.element;
    }
    const to = mapped(element, comparison.fromDims, comparison.toDims, comparison.perm);
    const there = call("tc_element", comparison.to, to.join(","));
    const here = call("tc_element", comparison.from, element.join(","));
    clearHighlights($("relayout"));
    highlight($("relayout-a"), '[data-element="' + element.join(",") + '"]');
    if (here.ok) highlight($("relayout-a"), '[data-position="' + here.index + '"]');
    highlight($("relayout-b"), '[data-element="' + to.join(",") + '"]');
    if (there.ok) highlight($("relayout-b"), '[data-position="' + there.index + '"]');
  });

  // ---------------------------------------------------------------- the rest

  function update() {
    updateLayout();
    updateSelection();
    updateCompare();
    writeHash();
    // What the page has answered, for its test: the inputs as they were.
    for (const id of Object.values(fields)) $(id).dataset.answered = $(id).value;
    if (timings.firstAnswer === null) {
      timings.firstAnswer = performance.now();
      $("status").textContent = "spec ready: first answer " + Math.round(timings.firstAnswer) +
        " ms after the page started loading";
    }
  }

  // One update per frame however fast the typing.
  let scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      update();
    });
  }

  function showCatalogue() {
    const list = $("catalogue-list");
    for (const entry of call("tc_catalog").entries) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = entry.layout;
      button.title = entry.name + ": " + entry.why;
      button.dataset.name = entry.name;
      button.addEventListener("click", () => {
        $("layout").value = entry.layout;
        $("element").value = "";
        $("position").value = "";
        update();
      });
      item.appendChild(button);
      list.appendChild(item);
    }
  }

  createTilecheck().then((module) => {
    spec = {
      tc_catalog: module.cwrap("tc_catalog", "string", []),
      tc_layout: module.cwrap("tc_layout", "string", ["string"]),
      tc_element: module.cwrap("tc_element", "string", ["string", "string"]),
      tc_position: module.cwrap("tc_position", "string", ["string", "string"]),
      tc_bitcast: module.cwrap("tc_bitcast", "string", ["string", "string", "string"]),
    };
    timings.ready = performance.now();
    readHash();
    showCatalogue();
    $("layout").addEventListener("input", () => {
      $("element").value = "";
      $("position").value = "";
      schedule();
    });
    for (const id of ["element", "position", "layout-b", "transpose"]) $(id).addEventListener("input", schedule);
    window.addEventListener("hashchange", () => { readHash(); update(); });
    update();
  });
})();
