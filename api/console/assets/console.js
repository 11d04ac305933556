// The console's progressive enhancement, served from the service (CSP: no inline script).
// Every page works without it; with it, dangerous forms ask first and a rebuild is followed live.
(function () {
  'use strict';

  // A form with data-confirm asks before it is sent.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // The projections page: while a rebuild runs, poll its progress and update the page in place.
  function followRebuild(box) {
    var status = document.getElementById('rebuild-status');
    var bar = document.getElementById('rebuild-bar');
    var wasRunning = box.getAttribute('data-running') === 'true';
    function show(progress) {
      var r = progress.rebuild;
      if (r) {
        status.textContent = 'Rebuild ' + r.status + ': ' + r.events + ' of ' + r.head + ' events' + (r.error ? ' (' + r.error + ')' : '');
        bar.max = Math.max(r.head, 1);
        bar.value = Math.min(r.events, r.head);
      }
      progress.projections.forEach(function (p) {
        var row = document.querySelector('tr[data-projection="' + p.name + '"]');
        if (!row) return;
        row.querySelector('[data-field="checkpoint"]').textContent = String(p.checkpoint);
        row.querySelector('[data-field="lag"]').textContent = String(p.lag);
        row.querySelector('[data-field="status"]').textContent = p.status;
      });
      var running = (r && r.status === 'running') || progress.projections.some(function (p) { return p.status !== 'live'; });
      if (running) wasRunning = true;
      return running;
    }
    function poll() {
      fetch(box.getAttribute('data-progress'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (response) { return response.json(); })
        .then(function (progress) { if (show(progress) || !wasRunning) { if (wasRunning) setTimeout(poll, 250); } })
        .catch(function () { setTimeout(poll, 1000); });
    }
    if (wasRunning) poll();
  }

  // A bar chart of monthly MRR with its movements stacked, drawn with uPlot from the table's data.
  function drawRevenue(box) {
    if (typeof window.uPlot !== 'function') return;
    var data = JSON.parse(box.getAttribute('data-series'));
    var colours = ['#1f6feb', '#2da44e', '#8250df', '#bf8700', '#cf222e'];
    var series = [{}].concat(data.series.map(function (s, i) {
      return { label: s.label, stroke: colours[i % colours.length], fill: colours[i % colours.length] + '99', paths: window.uPlot.paths.bars({ size: [0.6, 64] }) };
    }));
    // Stacked: each series is drawn as the running total of those before it.
    var stacked = data.series.map(function () { return []; });
    data.months.forEach(function (_m, j) {
      var sum = 0;
      data.series.forEach(function (s, i) { sum += s.values[j]; stacked[i][j] = sum; });
    });
    var x = data.months.map(function (_m, j) { return j; });
    new window.uPlot({
      width: Math.min(box.clientWidth || 800, 960),
      height: 320,
      series: series,
      axes: [{ values: function (_u, ticks) { return ticks.map(function (t) { return data.months[t] || ''; }); } }, {}],
      scales: { x: { time: false } },
    }, [x].concat(stacked.slice().reverse()), box);
  }

  document.addEventListener('DOMContentLoaded', function () {
    var box = document.getElementById('rebuild-progress');
    if (box) followRebuild(box);
    var chart = document.getElementById('revenue-chart');
    if (chart) drawRevenue(chart);
  });

})();
