// Draws the bar charts of an ftlab side-by-side page (written by SideBySide) from #compare-data: one chart per
// headline figure, a bar per run. When done, the body records how many canvases have something drawn on them, and
// #report-errors lists any error, so a headless browser can check the page.
(function () {
  'use strict';
  const errors = [];
  window.addEventListener('error', function (ev) { errors.push('script: ' + (ev.error || ev.message)); });
  const data = JSON.parse(document.getElementById('compare-data').textContent);
  const container = document.getElementById('figures');
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf'];
  let expected = 0;
  let rendered = 0;
  data.figures.forEach(function (f, i) {
    const runs = data.runs.filter(r => r[f.key] !== null && r[f.key] !== undefined);
    if (runs.length === 0) {
      return; // no run has this figure (e.g. no faults): no plot
    }
    expected++;
    const fig = document.createElement('figure');
    const canvas = document.createElement('canvas');
    canvas.id = 'figure-' + f.key;
    canvas.className = 'plot';
    canvas.setAttribute('aria-label', f.title);
    fig.appendChild(canvas);
    container.appendChild(fig);
    try {
      new Chart(canvas, {
        type: 'bar',
        data: { labels: runs.map(r => r.run),
          datasets: [{ label: f.title, data: runs.map(r => r[f.key]), backgroundColor: PALETTE[i % PALETTE.length] }] },
        options: { animation: false, maintainAspectRatio: false,
          plugins: { title: { display: true, text: f.title }, legend: { display: false } },
          scales: { y: { beginAtZero: true } } }
      });
      rendered++;
    } catch (e) {
      errors.push(f.key + ': ' + e.message);
    }
  });
  document.body.setAttribute('data-plots-expected', String(expected));
  document.body.setAttribute('data-plots-rendered', String(rendered));
  document.getElementById('report-errors').textContent = errors.join('\n');
})();
