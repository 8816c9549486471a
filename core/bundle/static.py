"""The bundle's stylesheet and its one script (plain files of the bundle: the pages load nothing else).

The script does two things, both from `walks.js` and the page's own address, with no request: on the index, a link
in the app's query keys (`?benchmark=&q=&run=&walk=&disagree=`, or the same after `#`) opens that question's page;
on a question page, previous/next follow the walked list of the run the address names, and that run's answer is
marked. Without the script every page still reads, and previous/next follow the order of all questions.
"""

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#111}
h1 small,h2 small,h3 small{font-weight:normal;color:#555;font-size:.7em}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left;
vertical-align:top}th{background:#f4f4f5}
pre{white-space:pre-wrap;word-wrap:break-word;background:#f8f8f8;border:1px solid #e5e5e5;padding:.6em;margin:.4em 0}
.note{color:#555;font-size:.9em}.warning{color:#92400e}
.status-correct{color:#15803d;font-weight:bold}.status-wrong{color:#b91c1c;font-weight:bold}
.status-unparsed{color:#a16207;font-weight:bold}.status-missing{color:#6b7280;font-weight:bold}
.chip{display:inline-block;border-radius:999px;padding:.05em .6em;margin:.1em;background:#eef;font-size:.85em}
.judge-primary{background:#b91c1c;color:#fff}.judge-secondary{background:#92400e;color:#fff}
.option.gold{background:#ecfdf5}.goldmark{color:#15803d;font-weight:bold}
.frames{display:flex;flex-wrap:wrap;gap:.6em}.frame{margin:0;width:240px;font-size:.8em}
.frame img{display:block;max-width:240px;border:1px solid #ccc}.sub{display:block;color:#1e3a8a}
.diagram{max-width:640px;border:1px solid #ccc}
.answer{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:.8em 0}
.answer.walked{border:2px solid #4f46e5;background:#fafaff}
mark.answer-read{background:#fde047;font-weight:bold}
.judge-card,.reviews{border-left:4px solid #b91c1c;padding-left:.8em;margin:.6em 0}
nav.walk{display:flex;gap:1em;align-items:center;margin:.5em 0;padding:.4em;background:#f4f4f5}
.breakdown{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}.weak{color:#a16207}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = window.MATHREEL_BUNDLE || {lists: {}, byRef: {}, pages: {}, labels: {}};
  function params() {
    var text = location.search.slice(1);
    var hash = location.hash.replace(/^#\/?\??/, "");
    if (!text && hash.indexOf("=") >= 0) { text = hash; }
    var out = {};
    text.split("&").forEach(function (pair) {
      if (!pair) { return; }
      var at = pair.indexOf("=");
      var key = decodeURIComponent((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, " "));
      out[key] = at < 0 ? "" : decodeURIComponent(pair.slice(at + 1).replace(/\+/g, " "));
    });
    return out;
  }
  function encode(p) {
    return Object.keys(p).filter(function (k) { return p[k]; }).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(p[k]);
    }).join("&");
  }
  function walkKey(p) {
    var walk = p.walk || (p.run ? "not_correct" : "all");
    return p.run ? p.run + "\t" + walk + (p.disagree === "1" ? "\tdisagree" : "") : "\tall";
  }
  var p = params();
  var root = document.body.getAttribute("data-root") || "";
  var kind = document.body.getAttribute("data-kind");
  if (kind === "index" && p.q) {
    var status = document.getElementById("link-status");
    if (p.benchmark && p.benchmark !== data.benchmark) {
      status.textContent = "This bundle holds " + data.benchmark + ", not " + p.benchmark + ".";
      return;
    }
    var files = data.byRef[p.q] || [];
    var mine = data.lists[(p.run || "") + "\tall"] || [];
    var file = files.filter(function (f) { return mine.indexOf(f) >= 0; })[0] || files[0];
    if (!file) { status.textContent = "No question " + p.q + " in this bundle."; return; }
    location.replace(root + file + "?" + encode(p));
    return;
  }
  if (kind !== "question") { return; }
  var here = location.pathname.split("/").slice(-2).join("/");
  var list = data.lists[walkKey(p)];
  if (!list || list.indexOf(here) < 0) {
    list = p.run ? data.lists[p.run + "\tall"] : null;
    if (list && list.indexOf(here) >= 0) { p.walk = "all"; delete p.disagree; } else { list = null; }
  }
  if (p.run) {
    document.querySelectorAll(".answer").forEach(function (section) {
      if (section.getAttribute("data-run") === p.run) {
        section.classList.add("walked");
        if (!location.hash || location.hash.indexOf("=") >= 0) { section.scrollIntoView({block: "start"}); }
      }
    });
  }
  if (!list) { return; }
  var at = list.indexOf(here);
  function link(file) {
    var q = Object.assign({}, p, {q: data.pages[file]});
    if (!q.benchmark) { q.benchmark = data.benchmark; }
    return "../" + file + "?" + encode(q);
  }
  var walk = p.walk || (p.run ? "not_correct" : "all");
  var label = (data.labels[walk] || walk) + (p.disagree === "1" ? " where the runs disagree" : "");
  document.querySelectorAll("nav.walk").forEach(function (nav) {
    var prev = nav.querySelector(".prev"), next = nav.querySelector(".next");
    [[prev, at - 1, "← previous"], [next, at + 1, "next →"]].forEach(function (item) {
      var node = item[0], target = list[item[1]];
      var a = document.createElement(target ? "a" : "span");
      a.className = node.className;
      if (target) { a.href = link(target); a.textContent = item[2]; }
      node.replaceWith(a);
    });
    nav.querySelector(".position").textContent = (at + 1) + " of " + list.length + " " + label +
      (p.run ? " · " + p.run : "");
  });
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea") { return; }
    var target = event.key === "j" ? list[at + 1] : event.key === "k" ? list[at - 1] : null;
    if (target) { location.href = link(target); }
  });
})();
"""
