// The game page's script (issue 29): countdowns, local times, the board's zoom, live updates
// through Server-Sent Events, and the replay's stepping. No framework, no build step; everything
// the page needs is in data- attributes (the Content Security Policy allows no inline script).
"use strict";

(function () {
  const body = document.body;

  function pad(n) { return String(n).padStart(2, "0"); }

  function countdowns() {
    const now = Date.now() / 1000;
    document.querySelectorAll("[data-due]").forEach(function (el) {
      const left = Math.round(Number(el.dataset.due) - now);
      if (left <= 0) { el.textContent = body.dataset.overdue || "0:00"; return; }
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      const m = Math.floor(left % 3600 / 60), s = left % 60;
      el.textContent = "⏳ " + (d ? d + "d " : "") + (d || h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }

  function localTimes(root) {
    root.querySelectorAll("time[data-ts]").forEach(function (el) {
      if (el.closest("[data-due]")) { return; }
      el.textContent = new Date(Number(el.dataset.ts) * 1000).toLocaleString(body.dataset.lang || undefined);
    });
  }

  function zoomable(root) {
    root.querySelectorAll("figure.board img").forEach(function (img) {
      if (img.dataset.zoomable) { return; }
      img.dataset.zoomable = "1";
      img.addEventListener("click", function () { img.closest("figure").classList.toggle("zoomed"); });
    });
  }

  function swapImage(id, src) {
    const img = document.getElementById(id);
    if (!img || !src) { return; }
    img.dataset.wanted = src;  // the latest wish wins, whichever picture arrives first
    if (img.getAttribute("src") === src) { return; }
    const next = new Image();  // loaded first, so the board never blinks empty
    next.onload = function () { if (img.dataset.wanted === src) { img.src = src; } };
    next.onerror = next.onload;
    next.src = src;
  }

  function live() {
    const url = body.dataset.events;
    if (!url || !window.EventSource) { return; }
    const badge = document.getElementById("live");
    const source = new EventSource(url + "&v=" + encodeURIComponent(body.dataset.version || ""));
    source.onopen = function () { if (badge) { badge.textContent = badge.dataset.on; badge.className = "live on"; } };
    source.onerror = function () { if (badge) { badge.textContent = badge.dataset.lost; badge.className = "live lost"; } };
    source.addEventListener("state", function (message) {
      const data = JSON.parse(message.data);
      if (body.dataset.status === "lobby" && data.status !== "lobby") { window.location.reload(); return; }
      ["players", "turn", "state", "log", "private"].forEach(function (id) {
        const el = document.getElementById(id);
        if (el && typeof data[id] === "string") { el.innerHTML = data[id]; localTimes(el); }
      });
      swapImage("board", data.board);
      swapImage("mine", data.mine);
      body.dataset.version = data.version;
      body.dataset.seq = data.seq;
      body.dataset.status = data.status;
      const log = document.getElementById("log");
      if (log && log.lastElementChild) { log.lastElementChild.scrollIntoView({block: "nearest"}); }
      countdowns();
    });
    source.addEventListener("end", function () {
      source.close();
      window.setTimeout(function () { window.location.reload(); }, 300);
    });
    source.addEventListener("gone", function () { source.close(); window.location.reload(); });
  }

  function replay() {
    if (!body.dataset.replay) { return; }
    const steps = Array.prototype.slice.call(document.querySelectorAll("#steps li.step"));
    const slider = document.getElementById("slider");
    const where = document.getElementById("where");
    const template = body.dataset.stepText || "{n} / {total}";
    const total = steps.length - 1;
    function show(index) {
      index = Math.max(0, Math.min(total, index));
      slider.value = String(index);
      steps.forEach(function (li, i) { li.classList.toggle("current", i === index); li.classList.toggle("later", i > index); });
      swapImage("board", steps[index].dataset.board);
      where.textContent = template.replace("{n}", index).replace("{total}", total);
      body.dataset.step = String(index);
      steps[index].scrollIntoView({block: "nearest"});
    }
    document.getElementById("prev").addEventListener("click", function () { show(Number(slider.value) - 1); });
    document.getElementById("next").addEventListener("click", function () { show(Number(slider.value) + 1); });
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    steps.forEach(function (li, i) { li.addEventListener("click", function () { show(i); }); });
    document.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft") { show(Number(slider.value) - 1); }
      if (e.key === "ArrowRight") { show(Number(slider.value) + 1); }
    });
    show(total);
  }

  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    zoomable(document);
    countdowns();
    window.setInterval(countdowns, 1000);
    live();
    replay();
  });
})();
