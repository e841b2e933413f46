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

  facet({
    param: "label", links: "a[data-label-filter]", valueAttr: "data-label-filter",
    items: "article.claim[data-label]", itemAttr: "data-label", counted: "article.claim",
    groups: ".claim-group", status: "label-status",
    describe: function (name, n) {
      return name ? "Showing " + n + " claims labelled " + name : "Showing all " + n + " claims";
    }
  });

  // Search: filter the full index already on the page.
  var input = document.getElementById("search-input");
  if (input) {
    var entries = Array.prototype.slice.call(document.querySelectorAll("[data-search]"));
    var searchStatus = document.getElementById("search-status");
    var runSearch = function () {
      var terms = tokens(input.value.toLowerCase());
      var shown = 0;
      entries.forEach(function (li) {
        var text = li.getAttribute("data-search");
        var match = terms.every(function (t) { return text.indexOf(t) >= 0; });
        li.hidden = !match;
        if (match) { shown += 1; }
      });
      document.querySelectorAll(".search-group").forEach(function (group) {
        group.hidden = !group.querySelector("[data-search]:not([hidden])");
      });
      searchStatus.textContent = terms.length ? shown + " results for \u201c" + input.value + "\u201d"
        : "All " + shown + " entries";
    };
    input.value = params().get("q") || "";
    input.addEventListener("input", function () { setParam("q", input.value, false); runSearch(); });
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

  // Map: name the node under focus or pointer; dim what the filters exclude.
  var map = document.querySelector("svg.map");
  if (map) {
    var info = document.getElementById("map-info");
    var nodes = Array.prototype.slice.call(map.querySelectorAll("a.node"));
    var name = function (node) { return node.getAttribute("aria-label"); };
    nodes.forEach(function (node) {
      var say = function () { info.textContent = name(node); };
      node.addEventListener("focus", say);
      node.addEventListener("mouseenter", say);
    });
    var typeBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-map-type]"));
    var programSelect = document.getElementById("map-program");
    var applyMap = function () {
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
      setParam("program", program, false);
    };
    typeBoxes.forEach(function (b) { b.addEventListener("change", applyMap); });
    programSelect.addEventListener("change", applyMap);
    programSelect.value = params().get("program") || "";
    document.getElementById("map-controls").hidden = false;
    applyMap();
  }
})();
