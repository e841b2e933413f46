// Progressive enhancement for Low-Precision RL. Without this file every entry is
// listed and every filter link opens a plain facet page; with it, filters act in
// place and their state lives in the URL (?program=, ?label=, ?q=).
"use strict";

(function () {
  var params = function () { return new URLSearchParams(window.location.search); };

  function setParam(name, value, push) {
    var url = new URL(window.location.href);
    if (value) { url.searchParams.set(name, value); } else { url.searchParams.delete(name); }
    var state = { param: name, value: value };
    if (push) { history.pushState(state, "", url); } else { history.replaceState(state, "", url); }
  }

  function tokens(value) { return (value || "").split(/\s+/).filter(Boolean); }

  // A facet: links that pick a value, items that match it, a status line that says so.
  function facet(options) {
    var links = Array.prototype.slice.call(document.querySelectorAll(options.links));
    if (!links.length) { return; }
    var items = Array.prototype.slice.call(document.querySelectorAll(options.items));
    var status = document.getElementById(options.status);
    var valid = links.map(function (a) { return a.getAttribute(options.valueAttr); });

    function apply(value) {
      if (valid.indexOf(value) < 0) { value = ""; }
      var shown = 0;
      items.forEach(function (item) {
        var match = !value || tokens(item.getAttribute(options.itemAttr)).indexOf(value) >= 0;
        item.hidden = !match;
        if (match && item.matches(options.counted)) { shown += 1; }
      });
      document.querySelectorAll(options.groups || "[data-never]").forEach(function (group) {
        group.hidden = !group.querySelector(options.items + ":not([hidden])");
      });
      links.forEach(function (a) {
        var current = a.getAttribute(options.valueAttr) === value;
        a.setAttribute("aria-pressed", current ? "true" : "false");
      });
      if (status) {
        var chosen = links.filter(function (a) { return a.getAttribute(options.valueAttr) === value; })[0];
        status.textContent = options.describe(value ? chosen.getAttribute("data-name") : "", shown);
      }
    }

    links.forEach(function (a) {
      a.setAttribute("role", "button");
      a.addEventListener("click", function (event) {
        event.preventDefault();
        var value = a.getAttribute(options.valueAttr);
        setParam(options.param, value, true);
        apply(value);
      });
    });
    window.addEventListener("popstate", function () { apply(params().get(options.param) || ""); });
    apply(params().get(options.param) || "");
  }

  facet({
    param: "program", links: "a[data-program]", valueAttr: "data-program",
    items: "[data-programs]", itemAttr: "data-programs", counted: ".card.dossier",
    status: "program-status",
    describe: function (name, n) {
      return name ? "Showing research program: " + name + " (" + n + " dossiers)"
        : "Showing all research programs (" + n + " dossiers)";
    }
  });

  // The claim ledger: the label links and the facet selects combine; each option says
  // how many claims it would show given the other choices; the state lives in the URL.
  var facetForm = document.querySelector("form[data-facets]");
  var labelLinks = Array.prototype.slice.call(document.querySelectorAll("a[data-label-filter]"));
  if (labelLinks.length) {
    var claims = Array.prototype.slice.call(document.querySelectorAll("article.claim[data-label]"));
    var selects = facetForm ? Array.prototype.slice.call(facetForm.querySelectorAll("select[data-facet]")) : [];
    var ledgerStatus = document.getElementById("label-status");
    var labels = labelLinks.map(function (a) { return a.getAttribute("data-label-filter"); });
    var chosen = function () {
      var state = { label: params().get("label") || "" };
      if (labels.indexOf(state.label) < 0) { state.label = ""; }
      selects.forEach(function (sel) { state[sel.name] = params().get(sel.name) || ""; });
      return state;
    };
    // Each claim's facet values, read from the page once (counting re-tests every claim
    // for every option).
    var keys = ["label"].concat(selects.map(function (sel) { return sel.name; }));
    var facts = claims.map(function (item) {
      var values = {};
      keys.forEach(function (key) { values[key] = tokens(item.getAttribute("data-" + key)); });
      return values;
    });
    var matches = function (index, state) {
      return Object.keys(state).every(function (key) {
        return !state[key] || facts[index][key].indexOf(state[key]) >= 0;
      });
    };
    var applyLedger = function () {
      var state = chosen();
      var shown = 0;
      claims.forEach(function (item, index) {
        var match = matches(index, state);
        item.hidden = !match;
        if (match) { shown += 1; }
      });
      document.querySelectorAll(".claim-group").forEach(function (group) {
        group.hidden = !group.querySelector("article.claim[data-label]:not([hidden])");
      });
      labelLinks.forEach(function (a) {
        a.setAttribute("aria-pressed", a.getAttribute("data-label-filter") === state.label ? "true" : "false");
      });
      selects.forEach(function (sel) {
        sel.value = state[sel.name];
        Array.prototype.slice.call(sel.options).forEach(function (option) {
          var trial = Object.assign({}, state);
          trial[sel.name] = option.value;
          var n = facts.filter(function (_, index) { return matches(index, trial); }).length;
          var name = option.textContent.replace(/ \(\d+\)$/, "");
          option.textContent = name + " (" + n + ")";
          option.disabled = n === 0 && option.value !== state[sel.name];
        });
      });
      var parts = Object.keys(state).filter(function (key) { return state[key]; });
      ledgerStatus.textContent = "Showing " + shown + " of " + claims.length + " claims" +
        (parts.length ? " (filtered by " + parts.join(", ") + ")" : "");
    };
    labelLinks.forEach(function (a) {
      a.setAttribute("role", "button");
      a.addEventListener("click", function (event) {
        event.preventDefault();
        setParam("label", a.getAttribute("data-label-filter"), true);
        applyLedger();
      });
    });
    if (facetForm) {
      facetForm.hidden = false;
      selects.forEach(function (sel) {
        sel.addEventListener("change", function () { setParam(sel.name, sel.value, true); applyLedger(); });
      });
      facetForm.addEventListener("reset", function (event) {
        event.preventDefault();
        selects.forEach(function (sel) { setParam(sel.name, "", false); });
        setParam("label", "", true);
        applyLedger();
      });
      facetForm.addEventListener("submit", function (event) { event.preventDefault(); });
    }
    window.addEventListener("popstate", applyLedger);
    applyLedger();
  }

  // Measurement tables sort by value or model size; /compare/'s filters hide the marks
  // and rows of other formats or sizes. Without JavaScript the tables stay in claim order.
  Array.prototype.slice.call(document.querySelectorAll("table.measurements th[data-sort]")).forEach(function (th) {
    var key = th.getAttribute("data-sort");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    th.setAttribute("aria-sort", "none");
    button.addEventListener("click", function () {
      var table = th.closest("table");
      var body = table.tBodies[0];
      var descending = th.getAttribute("aria-sort") !== "descending";
      table.querySelectorAll("th[data-sort]").forEach(function (other) { other.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      var rows = Array.prototype.slice.call(body.rows);
      var number = function (row) {
        var v = parseFloat(row.getAttribute("data-" + key));
        return isNaN(v) ? (descending ? -Infinity : Infinity) : v;
      };
      rows.sort(function (a, b) { return descending ? number(b) - number(a) : number(a) - number(b); });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  var compareForm = document.querySelector("form[data-compare]");
  if (compareForm) {
    compareForm.hidden = false;
    var compareStatus = document.getElementById("compare-status");
    var sizeMatches = function (size, range) {
      if (!range) { return true; }
      if (range === "none") { return size === ""; }
      if (size === "") { return false; }
      var bounds = range.split("-"), v = parseFloat(size);
      return v >= parseFloat(bounds[0]) && (bounds[1] === "" || v < parseFloat(bounds[1]));
    };
    var applyCompare = function () {
      var format = params().get("format") || "", size = params().get("size") || "";
      var baseline = params().get("baseline") || "";
      compareForm.elements.format.value = format;
      compareForm.elements.size.value = size;
      compareForm.elements.baseline.value = baseline;
      var shown = 0;
      document.querySelectorAll("section.metric tr[data-format]").forEach(function (row) {
        var match = (!format || row.getAttribute("data-format") === format) &&
          (!baseline || row.getAttribute("data-baseline") === baseline) &&
          sizeMatches(row.getAttribute("data-size"), size);
        row.hidden = !match;
        if (match) { shown += 1; }
      });
      document.querySelectorAll("section.metric").forEach(function (section) {
        section.querySelectorAll("a.mark[data-row]").forEach(function (mark) {
          var row = section.querySelector("tr[data-row='" + mark.getAttribute("data-row") + "']");
          mark.classList.toggle("off", Boolean(row && row.hidden));
        });
      });
      compareStatus.textContent = (format || size || baseline) ? shown + " measurements match" : "";
    };
    ["format", "baseline", "size"].forEach(function (name) {
      compareForm.elements[name].addEventListener("change", function () {
        setParam(name, compareForm.elements[name].value, true);
        applyCompare();
      });
    });
    window.addEventListener("popstate", applyCompare);
    applyCompare();
  }

  // Search: filter the full index already on the page.
  var input = document.getElementById("search-input");
  if (input) {
    var entries = Array.prototype.slice.call(document.querySelectorAll("[data-search]"));
    var searchStatus = document.getElementById("search-status");
    var typeSelect = document.getElementById("search-type");
    typeSelect.hidden = false;
    typeSelect.value = params().get("type") || "";
    var runSearch = function () {
      var terms = tokens(input.value.toLowerCase());
      var type = typeSelect.value;
      var shown = 0;
      document.querySelectorAll(".search-group").forEach(function (group) {
        var wanted = !type || group.getAttribute("data-type") === type;
        group.querySelectorAll("[data-search]").forEach(function (li) {
          var text = li.getAttribute("data-search");
          var match = wanted && terms.every(function (t) { return text.indexOf(t) >= 0; });
          li.hidden = !match;
          if (match) { shown += 1; }
        });
        group.hidden = !group.querySelector("[data-search]:not([hidden])");
      });
      searchStatus.textContent = terms.length ? shown + " results for \u201c" + input.value + "\u201d"
        : "All " + shown + " entries";
    };
    input.value = params().get("q") || "";
    input.addEventListener("input", function () { setParam("q", input.value, false); runSearch(); });
    typeSelect.addEventListener("change", function () { setParam("type", typeSelect.value, true); runSearch(); });
    input.form.addEventListener("submit", function (event) { event.preventDefault(); runSearch(); });
    runSearch();
  }

  // Cite blocks: a copy button, shown only where the clipboard API exists.
  Array.prototype.slice.call(document.querySelectorAll("button[data-copy]")).forEach(function (button) {
    if (!navigator.clipboard) { return; }
    button.hidden = false;
    var id = button.getAttribute("data-copy");
    var status = document.querySelector("[data-copy-status='" + id + "']");
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(document.getElementById(id).textContent).then(function () {
        status.textContent = "Copied to the clipboard.";
      }, function () { status.textContent = "Copy failed: select the text instead."; });
    });
  });

  // Map: name the node under focus or pointer; dim what the filters exclude; select a
  // node (first click or Enter, or ?focus=type:id) to light its neighbours and list them.
  var map = document.querySelector("svg.map");
  if (map) {
    var info = document.getElementById("map-info");
    var nodes = Array.prototype.slice.call(map.querySelectorAll("a.node"));
    var edges = Array.prototype.slice.call(map.querySelectorAll("path.edge"));
    var byKey = {};
    nodes.forEach(function (node) { byKey[node.getAttribute("data-key")] = node; });
    var name = function (node) { return node.getAttribute("aria-label"); };
    var selected = null;
    var say = function (text) {
      info.textContent = "";
      var line = document.createElement("p");
      line.textContent = text;
      info.appendChild(line);
    };
    var select = function (key, push) {
      var node = byKey[key];
      nodes.forEach(function (n) { n.classList.remove("on", "selected"); });
      edges.forEach(function (e) { e.classList.remove("on"); });
      map.classList.toggle("selecting", Boolean(node));
      selected = node ? key : null;
      setParam("focus", selected, push);
      if (!node) { say("Hover over or focus a node to see its name."); return; }
      node.classList.add("on", "selected");
      var linked = [];
      edges.forEach(function (e) {
        var a = e.getAttribute("data-a"), b = e.getAttribute("data-b");
        if (a !== key && b !== key) { return; }
        e.classList.add("on");
        var other = byKey[a === key ? b : a];
        if (other && linked.indexOf(other) < 0) { other.classList.add("on"); linked.push(other); }
      });
      say(name(node) + ": " + linked.length + " connection" + (linked.length === 1 ? "" : "s") + ". Select it again to open it.");
      var list = document.createElement("ul");
      linked.forEach(function (other) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = other.getAttribute("href");
        link.textContent = name(other);
        item.appendChild(link);
        list.appendChild(item);
      });
      info.appendChild(list);
    };
    nodes.forEach(function (node) {
      var show = function () { if (!selected) { say(name(node)); } };
      node.addEventListener("focus", show);
      node.addEventListener("mouseenter", show);
      node.addEventListener("click", function (event) {
        var key = node.getAttribute("data-key");
        if (selected === key) { return; }  // the second choice opens the entry
        event.preventDefault();
        select(key, true);
      });
    });
    var typeBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-map-type]"));
    var programSelect = document.getElementById("map-program");
    var applyMap = function (push) {
      var types = typeBoxes.filter(function (b) { return b.checked; })
        .map(function (b) { return b.getAttribute("data-map-type"); });
      var program = programSelect.value;
      var shown = 0;
      nodes.forEach(function (node) {
        var match = types.indexOf(node.getAttribute("data-type")) >= 0 &&
          (!program || tokens(node.getAttribute("data-programs")).indexOf(program) >= 0);
        node.classList.toggle("dim", !match);
        if (match) { shown += 1; }
      });
      document.getElementById("map-status").textContent = shown + " of " + nodes.length + " nodes match";
      setParam("program", program, push);
    };
    var restore = function () {
      if (params().get("focus") || params().get("program")) { document.getElementById("every-entry").open = true; }
      programSelect.value = params().get("program") || "";
      applyMap(false);
      select(params().get("focus"), false);
    };
    typeBoxes.forEach(function (b) { b.addEventListener("change", function () { applyMap(false); }); });
    programSelect.addEventListener("change", function () { applyMap(true); });
    window.addEventListener("popstate", restore);
    document.getElementById("map-controls").hidden = false;
    restore();
    // Opened with a focus in the address: show the full map, not the overview above it.
    if (selected) { document.getElementById("every-entry").scrollIntoView(); }
  }
})();
