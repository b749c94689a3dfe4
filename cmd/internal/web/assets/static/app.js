// roadtune run pages: live status over server-sent events, charts and
// tables refreshed in place, and the game viewer. No external code.
(function () {
  'use strict';

  // loadCharts fetches every chart's SVG and puts it inline in its div.
  function loadCharts(version) {
    document.querySelectorAll('.chart[data-src]').forEach(function (div) {
      var src = div.getAttribute('data-src');
      if (version) src += (src.indexOf('?') < 0 ? '?' : '&') + 'v=' + encodeURIComponent(version);
      fetch(src).then(function (r) {
        if (!r.ok) throw new Error(r.status + ' ' + r.statusText);
        return r.text();
      }).then(function (text) {
        var doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        var svg = doc.documentElement;
        if (!svg || svg.nodeName.toLowerCase() !== 'svg') throw new Error('not an SVG document');
        div.replaceChildren(document.importNode(svg, true));
      }).catch(function (err) {
        div.textContent = 'chart unavailable: ' + err.message;
      });
    });
  }

  // refresh fetches the page again and swaps its live sections in; the
  // charts are reloaded in place (replaced only when the set changed).
  var busy = false, again = false;
  function refresh(version) {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { headers: { 'Accept': 'text/html' } }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      document.querySelectorAll('[data-live]').forEach(function (el) {
        var fresh = doc.getElementById(el.id);
        if (!fresh) return;
        if (el.id === 'charts' && el.getAttribute('data-names') === fresh.getAttribute('data-names')) return;
        el.replaceWith(document.importNode(fresh, true));
      });
      loadCharts(version);
    }).catch(function () { /* the next event tries again */ }).finally(function () {
      busy = false;
      if (again) { again = false; refresh(version); }
    });
  }

  // showStatus writes a status event's fields into the status block.
  function showStatus(st) {
    document.querySelectorAll('[data-status]').forEach(function (el) {
      var v = st[el.getAttribute('data-status')];
      el.textContent = v === undefined || v === null ? '' : String(v);
    });
  }

  function live() {
    var block = document.querySelector('[data-events]');
    if (!block || !window.EventSource) return;
    var version = null;
    var es = new EventSource(block.getAttribute('data-events'));
    es.addEventListener('status', function (e) {
      var st;
      try { st = JSON.parse(e.data); } catch (err) { return; }
      showStatus(st);
      if (version !== null && st.version !== version) refresh(st.version);
      version = st.version;
    });
    window.addEventListener('pagehide', function () { es.close(); });
  }

  function poll() {
    var ms = parseInt(document.body.getAttribute('data-poll') || '0', 10);
    if (ms > 0) setInterval(function () { refresh(''); }, ms);
  }

  // viewer steps through a game one move (one or two stones) at a time.
  function viewer() {
    var data = document.getElementById('game-data');
    var layer = document.getElementById('stones');
    if (!data || !layer) return;
    var game = JSON.parse(data.textContent);
    var moves = game.moves || [];
    var n = moves.length, k = n;
    var NS = 'http://www.w3.org/2000/svg';
    function draw() {
      var nodes = [];
      for (var i = 0; i < k; i++) {
        var m = moves[i];
        var cls = 'stone ' + m.color + (i < game.opening ? ' opening' : '') + (i === k - 1 ? ' last' : '');
        m.stones.forEach(function (s) {
          var c = document.createElementNS(NS, 'circle');
          c.setAttribute('class', cls);
          c.setAttribute('cx', game.margin + s[0] * game.cell);
          c.setAttribute('cy', game.margin + s[1] * game.cell);
          c.setAttribute('r', '10.5');
          var t = document.createElementNS(NS, 'title');
          t.textContent = String.fromCharCode(65 + s[0]) + String.fromCharCode(65 + s[1]);
          c.appendChild(t);
          nodes.push(c);
        });
      }
      layer.replaceChildren.apply(layer, nodes);
      document.getElementById('move-no').textContent = 'move ' + k + ' of ' + n;
      var text = '';
      if (k > 0) {
        var m = moves[k - 1];
        text = 'move ' + k + ': ' + m.color.charAt(0).toUpperCase() + m.color.slice(1) + ' ' + m.text + (k - 1 < game.opening ? ' (opening)' : '');
      }
      var mt = document.getElementById('move-text');
      if (mt) mt.textContent = text;
      document.getElementById('first').disabled = document.getElementById('prev').disabled = k === 0;
      document.getElementById('last').disabled = document.getElementById('next').disabled = k === n;
    }
    function go(to) { k = Math.max(0, Math.min(n, to)); draw(); }
    document.getElementById('first').addEventListener('click', function () { go(0); });
    document.getElementById('prev').addEventListener('click', function () { go(k - 1); });
    document.getElementById('next').addEventListener('click', function () { go(k + 1); });
    document.getElementById('last').addEventListener('click', function () { go(n); });
    document.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: n }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    });
    draw();
  }

  document.addEventListener('DOMContentLoaded', function () {
    loadCharts('');
    live();
    poll();
    viewer();
  });
})();
