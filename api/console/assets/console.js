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

  // The revenue page: each month's closing MRR as bars, what was kept and each movement that added to it stacked,
  // drawn with uPlot from the figures the page's table shows. A stack is drawn tallest first, each part over it.
  function drawRevenue(box) {
    if (typeof window.uPlot !== 'function') return;
    var data = JSON.parse(box.getAttribute('data-series'));
    var colours = ['#57606a', '#1f6feb', '#2da44e', '#8250df'];
    var totals = data.series.map(function () { return []; });
    data.months.forEach(function (_month, j) {
      var sum = 0;
      data.series.forEach(function (part, i) { sum += part.values[j]; totals[i][j] = sum; });
    });
    var order = data.series.map(function (_part, i) { return i; }).reverse();
    var series = [{ label: 'Month', value: function (_u, j) { return data.months[j] || ''; } }].concat(order.map(function (i) {
      var part = data.series[i];
      return {
        label: part.label,
        stroke: colours[i % colours.length],
        fill: colours[i % colours.length],
        paths: window.uPlot.paths.bars({ size: [0.6, 48] }),
        points: { show: false },
        value: function (_u, _v, _s, j) { return j === null || j === undefined ? '' : part.values[j].toFixed(2); },
      };
    }));
    var x = data.months.map(function (_month, j) { return j; });
    new window.uPlot({
      width: Math.min(box.clientWidth || 800, 960),
      height: 300,
      scales: { x: { time: false, range: [-0.5, data.months.length - 0.5] } },
      axes: [{ splits: function () { return x; }, values: function (_u, ticks) { return ticks.map(function (t) { return data.months[t] || ''; }); } }, { label: 'MRR (' + data.currency + ')' }],
      series: series,
    }, [x].concat(order.map(function (i) { return totals[i]; })), box);
  }

  document.addEventListener('DOMContentLoaded', function () {
    var box = document.getElementById('rebuild-progress');
    if (box) followRebuild(box);
    Array.prototype.forEach.call(document.querySelectorAll('.revenue-chart'), drawRevenue);
  });

})();
