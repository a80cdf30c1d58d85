// Draws the plots of an ftlab report from the data embedded in #report-data (written by HtmlReport).
// Every plot is a Chart.js chart on a canvas.plot; when done, the body records how many canvases have
// something drawn on them, and #report-errors lists any error, so a headless browser can check the page.
(function () {
  'use strict';
  const errors = [];
  function fail(where, e) {
    errors.push(where + ': ' + (e && e.message ? e.message : String(e)));
  }
  window.addEventListener('error', function (ev) { fail('script', ev.error || ev.message); });
  const consoleError = console.error;
  console.error = function () { fail('console', Array.prototype.join.call(arguments, ' ')); consoleError.apply(console, arguments); };

  const data = JSON.parse(document.getElementById('report-data').textContent);
  const summary = data.summary;
  const all = summary.configs.filter(c => c.method === 'all' && c.count > 0);
  const ms = us => us / 1000;
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf'];
  const color = i => PALETTE[i % PALETTE.length];
  const uniq = xs => Array.from(new Set(xs));
  const replyOrder = r => r === 'original' ? -1 : Number(r);
  const charts = {};

  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.size = 11;

  // Shades [from, to] on the x axis (seconds): options.plugins.shade = {areas: [{from, to, color, label}]}; a label
  // is written at the top of its area (staggered, so that neighbours do not overwrite each other).
  Chart.register({
    id: 'shade',
    beforeDatasetsDraw(chart, args, opts) {
      const areas = (opts && opts.areas) || [];
      const x = chart.scales.x; const a = chart.chartArea; const ctx = chart.ctx;
      areas.forEach((s, k) => {
        const x0 = Math.max(a.left, x.getPixelForValue(s.from));
        const x1 = Math.min(a.right, x.getPixelForValue(s.to));
        if (x0 > a.right || x1 < a.left) return;
        ctx.save(); ctx.fillStyle = s.color;
        if (x1 > x0) ctx.fillRect(x0, a.top, x1 - x0, a.bottom - a.top); else ctx.fillRect(x0 - 1, a.top, 2, a.bottom - a.top);
        if (s.label) { ctx.fillStyle = '#333'; ctx.font = '10px sans-serif'; ctx.fillText(s.label, x0 + 2, a.top + 10 + 11 * (k % 3)); }
        ctx.restore();
      });
    }
  });
  // One colour per fault kind (the vocabulary of docs/faults.md), the same on every plot.
  const KIND_COLORS = { 'crash': 'rgba(214,39,40,0.30)', 'hang': 'rgba(148,103,189,0.30)', 'freeze': 'rgba(23,190,207,0.30)',
    'slow': 'rgba(255,127,14,0.25)', 'link-down': 'rgba(140,86,75,0.30)', 'partition': 'rgba(227,119,194,0.30)',
    'flaky': 'rgba(188,189,34,0.30)', 'bandwidth': 'rgba(44,160,44,0.25)', 'db-hang': 'rgba(31,119,180,0.30)',
    'db-slow': 'rgba(127,127,127,0.30)', 'unprovoked': 'rgba(0,0,0,0.15)' };
  // Latency quantiles and completions per 1-s slice: the datasets of every time-based plot.
  function sliceDatasets(sl, pointRadius, borderWidth) {
    const line = (k, label, c) => ({ type: 'line', label: label, yAxisID: 'y', borderColor: color(c), backgroundColor: color(c),
      pointRadius: pointRadius, borderWidth: borderWidth, spanGaps: false, data: sl.map(s => ({ x: s.second + 0.5, y: s[k] })) });
    return [line('max_ms', 'max', 1), line('p99_ms', 'p99', 3), line('p50_ms', 'median', 0),
      { type: 'bar', label: 'completed requests/s', yAxisID: 'y2', backgroundColor: 'rgba(127,127,127,0.3)', data: sl.map(s => ({ x: s.second + 0.5, y: s.completed })) }];
  }
  function sliceScales(xTitle) {
    return { x: axis(xTitle, false), y: axis('latency (ms, log)', true, { position: 'left' }),
      y2: axis('completed requests per second', false, { position: 'right', grid: { drawOnChartArea: false }, min: 0 }) };
  }
  const bandAreas = bands => (bands || []).map(b => ({ from: b.from_s, to: b.to_s, color: KIND_COLORS[b.kind] || 'rgba(0,0,0,0.15)',
    label: b.fault_id + ' ' + b.kind + (b.target ? ' ' + b.target : '') }));

  function axis(title, log, extra) {
    return Object.assign({ type: log ? 'logarithmic' : 'linear', title: { display: true, text: title } }, extra || {});
  }
  function title(text) { return { display: true, text: text }; }
  function draw(id, config) {
    const canvas = typeof id === 'string' ? document.getElementById(id) : id;
    if (!canvas) return;
    try {
      if (charts[canvas.id]) charts[canvas.id].destroy();
      charts[canvas.id] = new Chart(canvas, config);
    } catch (e) { fail(canvas.id, e); }
  }
  function addCanvas(container, id, label) {
    const fig = document.createElement('figure');
    const c = document.createElement('canvas');
    c.id = id; c.className = 'plot'; c.setAttribute('role', 'img'); c.setAttribute('aria-label', label);
    fig.appendChild(c); container.appendChild(fig);
    return c;
  }

  // p99 against mean, log-log, with the fitted line and the 10x / 25x bounds of the magical 1%.
  (function () {
    const pts = all.map(c => ({ x: ms(c.mean_us), y: ms(c.p99_us), label: c.config }));
    const xs = pts.map(p => p.x);
    const lo = Math.min.apply(null, xs.concat([1])) * 0.8; const hi = Math.max.apply(null, xs.concat([1])) * 1.25;
    const ds = [{ type: 'scatter', label: 'configuration', data: pts, backgroundColor: color(0) }];
    const g = summary.p99_regression;
    if (g) {
      ds.push({ type: 'line', label: 'fit: p99 = ' + g.slope.toFixed(3) + '·mean ' + (g.intercept_us < 0 ? '− ' : '+ ') + Math.abs(g.intercept_us).toFixed(0) + ' µs',
        data: [{ x: lo, y: g.slope * lo + g.intercept_us / 1000 }, { x: hi, y: g.slope * hi + g.intercept_us / 1000 }],
        borderColor: color(1), pointRadius: 0 });
    }
    [10, 25].forEach((k, i) => ds.push({ type: 'line', label: 'p99 = ' + k + ' × mean', data: [{ x: lo, y: k * lo }, { x: hi, y: k * hi }],
      borderColor: color(7 + i), borderDash: [4, 4], pointRadius: 0 }));
    draw('p99-vs-mean', { type: 'scatter', data: { datasets: ds }, options: {
      plugins: { title: title('p99 vs mean (log-log)') },
      scales: { x: axis('mean latency (ms, log)', true), y: axis('p99 latency (ms, log)', true) } } });
  })();

  // Per-client latency in request order, one configuration at a time.
  (function () {
    const select = document.getElementById('client-config');
    if (!select) return;
    data.plots.forEach((p, i) => { const o = document.createElement('option'); o.value = i; o.textContent = p.config; select.appendChild(o); });
    function render() {
      const p = data.plots[Number(select.value) || 0];
      if (!p) return;
      draw('client-latency', { type: 'line', data: { datasets: p.clients.map((c, i) => ({
        label: 'client ' + c.client, data: c.index.map((x, k) => ({ x: x, y: c.ms[k] })), borderColor: color(i),
        borderWidth: 1, pointRadius: 0 })) }, options: { parsing: false,
        plugins: { title: title('latency per client, ' + p.config), legend: { display: p.clients.length <= 10 } },
        scales: { x: axis('request index (per client)', false), y: axis('latency (ms, log)', true) } } });
    }
    select.addEventListener('change', render);
    render();
  })();

  // Percentile spectrum of one block: recorded vs corrected (closed loop) or vs service time (open loop), on the
  // usual 1/(1 - p) axis, so that every nine gets the same width.
  (function () {
    const select = document.getElementById('spectrum-config');
    if (!select) return;
    data.plots.forEach((p, i) => { const o = document.createElement('option'); o.value = i; o.textContent = p.config; select.appendChild(o); });
    const NINES = { 1: '0%', 2: '50%', 10: '90%', 100: '99%', 1000: '99.9%', 10000: '99.99%', 100000: '99.999%', 1000000: '99.9999%' };
    function points(spectrum) {
      const out = [];
      spectrum.forEach(q => {
        if (q[0] >= 100) {
          // the max sits one decade past the last finite point
          const last = out.length ? out[out.length - 1].x : 1;
          out.push({ x: last * 10, y: ms(q[1]) });
        } else {
          out.push({ x: 1 / (1 - q[0] / 100), y: ms(q[1]) });
        }
      });
      return out;
    }
    function render() {
      const p = data.plots[Number(select.value) || 0];
      if (!p) return;
      draw('spectrum', { type: 'line', data: { datasets: [
        { label: 'recorded', data: points(p.spectrum), borderColor: color(0), backgroundColor: color(0), pointRadius: 1, borderWidth: 1.5 },
        { label: p.spectrum2_label, data: points(p.spectrum2), borderColor: color(1), backgroundColor: color(1), pointRadius: 1, borderWidth: 1.5 }] },
        options: { parsing: false, plugins: { title: title('latency by percentile, ' + p.config + ' (last point: max)') },
          scales: { x: axis('percentile (axis: 1/(1 − p), log)', true, { min: 1, ticks: { callback: v => NINES[v] !== undefined ? NINES[v] : '' } }),
            y: axis('latency (ms, log)', true) } } });
    }
    select.addEventListener('change', render);
    render();
  })();

  // Max, p99 and mean vs number of clients: one plot per reply size, a colour per think time.
  (function () {
    const box = document.getElementById('by-reply');
    if (!box) return; // a run of one configuration: the report leaves this plot out
    const replies = uniq(all.map(c => c.reply)).sort((a, b) => replyOrder(a) - replyOrder(b));
    const load = c => c.rate_per_s != null ? c.rate_per_s : c.think_ms;
    const loadName = all.some(c => c.rate_per_s != null) ? (t => 'rate ' + t + '/s') : (t => 'think ' + t + ' ms');
    const thinks = uniq(all.map(load)).sort((a, b) => a - b);
    const clients = uniq(all.map(c => c.clients)).sort((a, b) => a - b);
    // replicates of a configuration: their mean (each replicate's figures are in the tables)
    const avg = (xs, k) => xs.reduce((s, c) => s + c[k], 0) / xs.length;
    replies.forEach((reply, ri) => {
      const canvas = addCanvas(box, 'by-reply-' + ri, 'max, p99, mean vs clients, reply ' + reply);
      const ds = [];
      thinks.forEach((t, ti) => {
        [['max', 'max_us', [2, 2]], ['p99', 'p99_us', [6, 3]], ['mean', 'mean_us', []]].forEach(m => {
          ds.push({ label: m[0] + ', ' + loadName(t), borderColor: color(ti), backgroundColor: color(ti), borderDash: m[2],
            data: clients.map(n => { const cs = all.filter(x => x.reply === reply && load(x) === t && x.clients === n); return cs.length ? { x: n, y: ms(avg(cs, m[1])) } : null; }).filter(Boolean) });
        });
      });
      draw(canvas, { type: 'line', data: { datasets: ds }, options: {
        plugins: { title: title('reply ' + (reply === 'original' ? 'original' : reply + ' bytes') + ': max (dotted), p99 (dashed), mean (solid)'),
          legend: { labels: { boxWidth: 10 } } },
        scales: { x: axis('clients', false, { ticks: { stepSize: 1 } }), y: axis('latency (ms, log)', true) } } });
    });
  })();

  // The haircut: configurations sorted by mean; max and p99 as areas, the mean as a line.
  (function () {
    const s = all.slice().sort((a, b) => a.mean_us - b.mean_us);
    const labels = s.map(c => c.block || c.config);
    draw('haircut', { type: 'line', data: { labels: labels, datasets: [
      { label: 'max', data: s.map(c => ms(c.max_us)), borderColor: color(1), backgroundColor: 'rgba(214,39,40,0.25)', fill: 'origin', pointRadius: 0 },
      { label: 'p99', data: s.map(c => ms(c.p99_us)), borderColor: color(3), backgroundColor: 'rgba(255,127,14,0.35)', fill: 'origin', pointRadius: 0 },
      { label: 'mean', data: s.map(c => ms(c.mean_us)), borderColor: color(0), pointRadius: 1 }] },
      options: { plugins: { title: title('configurations sorted by mean latency: the max is erratic, p99 follows the mean') },
        scales: { x: { title: { display: true, text: 'configuration (sorted by mean)' }, ticks: { autoSkip: true, maxRotation: 90 } },
          y: axis('latency (ms, log)', true) } } });
  })();

  // Where the top-1% requests spend their time: stacked middleware / server (excluding DB) / database.
  (function () {
    const s = all.filter(c => c.top1pct_count > 0);
    draw('outlier-breakdown', { type: 'bar', data: { labels: s.map(c => c.block || c.config), datasets: [
      { label: 'middleware', data: s.map(c => ms(c.top1pct_middleware_mean_us)), backgroundColor: color(0) },
      { label: 'server, outside the database', data: s.map(c => ms(Math.max(0, c.top1pct_server_mean_us - c.top1pct_database_mean_us))), backgroundColor: color(3) },
      { label: 'database', data: s.map(c => ms(c.top1pct_database_mean_us)), backgroundColor: color(2) }] },
      options: { plugins: { title: title('mean time of the slowest 1% of requests, by component') },
        scales: { x: { stacked: true, title: { display: true, text: 'configuration' }, ticks: { maxRotation: 90 } },
          y: axis('mean latency of the top 1% (ms)', false, { stacked: true }) } } });
  })();

  // Request rate vs p99, a series per reply size.
  (function () {
    const replies = uniq(all.map(c => c.reply)).sort((a, b) => replyOrder(a) - replyOrder(b));
    draw('rate-size-p99', { type: 'scatter', data: { datasets: replies.map((r, i) => ({
      label: 'reply ' + r + (r === 'original' ? '' : ' B'), backgroundColor: color(i),
      pointRadius: 3 + 2 * i, data: all.filter(c => c.reply === r && c.request_rate_per_s != null).map(c => ({ x: c.request_rate_per_s, y: ms(c.p99_us) })) })) },
      options: { plugins: { title: title('p99 latency vs request rate at the server, by reply size (larger marker = larger reply)') },
        scales: { x: axis('request rate (requests/s, log)', true), y: axis('p99 latency (ms, log)', true) } } });
  })();

  // Latency vs throughput (request rate × reply size), a series per think time.
  (function () {
    const thinks = uniq(all.map(c => c.think_ms)).sort((a, b) => a - b);
    draw('latency-throughput', { type: 'scatter', data: { datasets: thinks.map((t, i) => ({
      label: 'think ' + t + ' ms', backgroundColor: color(i),
      data: all.filter(c => c.think_ms === t && c.throughput_bytes_per_s != null).map(c => ({ x: c.throughput_bytes_per_s / 1024, y: ms(c.mean_us) })) })) },
      options: { plugins: { title: title('mean latency vs throughput (fixed reply sizes only)') },
        scales: { x: axis('throughput (KiB/s of replies, log)', true), y: axis('mean latency (ms, log)', true) } } });
  })();

  // Latency CDF per configuration, coloured by number of clients.
  (function () {
    const clients = uniq(all.map(c => c.clients)).sort((a, b) => a - b);
    draw('cdf', { type: 'line', data: { datasets: data.plots.filter(p => p.cdf_ms.length > 0).map(p => {
      const c = all.find(x => (x.block || x.config) === p.config); const ci = c ? clients.indexOf(c.clients) : 0;
      return { label: p.config, data: p.cdf_ms.map((x, k) => ({ x: x, y: p.cdf_fraction[k] })), borderColor: color(ci), borderWidth: 1, pointRadius: 0 };
    }) }, options: { parsing: false, plugins: { title: title('latency CDF per configuration (colour: number of clients)'), legend: { display: false } },
      scales: { x: axis('latency (ms, log)', true), y: axis('fraction of requests at or below', false, { min: 0, max: 1 }) } } });
  })();

  // Box plots: box p25–p75, whiskers min–p99, median tick, max dot.
  (function () {
    draw('boxes', { type: 'bar', data: { labels: all.map(c => c.block || c.config), datasets: [
      { label: 'min – p99', data: all.map(c => [ms(c.min_us), ms(c.p99_us)]), backgroundColor: '#555', barPercentage: 0.12, grouped: false },
      { label: 'p25 – p75', data: all.map(c => [ms(c.p25_us), ms(c.p75_us)]), backgroundColor: 'rgba(31,119,180,0.6)', barPercentage: 0.7, grouped: false },
      { type: 'line', label: 'median', data: all.map(c => ms(c.median_us)), showLine: false, pointStyle: 'line', pointRadius: 8, borderColor: '#000', borderWidth: 2 },
      { type: 'line', label: 'max', data: all.map(c => ms(c.max_us)), showLine: false, pointStyle: 'circle', pointRadius: 3, borderColor: color(1), backgroundColor: 'rgba(0,0,0,0)' }] },
      options: { plugins: { title: title('latency per configuration: box p25–p75, whiskers min–p99, tick median, circle max') },
        scales: { x: { title: { display: true, text: 'configuration' }, ticks: { maxRotation: 90 } }, y: axis('latency (ms, log)', true) } } });
  })();

  const fo = summary.failover || {};

  // Fail-over phases of the faulty invocations (means), a stacked bar per strategy.
  (function () {
    const byName = n => (fo.phases || []).find(p => p.name === n);
    if (!byName('detection')) return;
    const parts = [['fault detection', 'detection', 1], ['fail-over', 'failover', 3], ['fault-free retry', 'retry', 2]];
    draw('phases', { type: 'bar', data: { labels: [fo.failover_strategy + ' (n = ' + byName('detection').count + ')'],
      datasets: parts.map(p => ({ label: p[0], data: [ms(byName(p[1]).mean_us)], backgroundColor: color(p[2]) })) },
      options: { indexAxis: 'y', plugins: { title: title('faulty invocation: mean time in each phase') },
        scales: { x: axis('mean time (ms)', false, { stacked: true }), y: { stacked: true } } } });
  })();

  // The promoted replica of a fault, whether the manager had read it hot, and when the new primary was back to speed:
  // a second title line, or none.
  function promotion(faultId) {
    const f = (fo.faults || []).find(x => x.fault_id === faultId);
    if (!f || !f.promoted) return [];
    let line = f.promoted + ' promoted';
    if (f.promoted_top_tier_share != null) {
      line += ' with ' + Math.round(100 * f.promoted_top_tier_share) + '% of the request path at the top tier ('
        + (f.promoted_hot ? 'hot' : 'not hot') + ')';
    }
    if (f.handover) {
      line += '; hand-over x' + f.handover.ratio.toFixed(2) + ', back within 1.2x after '
        + (f.handover.back_to_speed_s == null ? 'more than 30 s' : f.handover.back_to_speed_s + ' s');
    }
    return [line];
  }

  // A timeline around each fault: latency quantiles and completions per 1-s slice, the fault shaded.
  (function () {
    const box = document.getElementById('timelines');
    if (!box) return;
    (fo.timelines || []).slice(0, data.max_timelines).forEach((t, i) => {
      const canvas = addCanvas(box, 'timeline-' + i, 'latency around fault ' + t.fault_id);
      // every fault in the window, from injection to repair, in its kind's colour; this fault's promotion and
      // restoration as thin marks
      const areas = bandAreas(t.bands);
      [t.promoted_s, t.restored_s].forEach(s => { if (s != null) areas.push({ from: s, to: s, color: 'rgba(0,0,0,0.6)' }); });
      draw(canvas, { type: 'line', data: { datasets: sliceDatasets(t.slices, 2, undefined) },
        options: { plugins: { title: title([t.fault_id + ' (' + t.kind + ') in ' + t.config + ': each fault shaded from injection to repair; marks = promoted, restored']
            .concat(promotion(t.fault_id))), shade: { areas: areas } },
          scales: sliceScales('seconds since the fault was injected') } });
    });
  })();

  // The whole run second by second, every fault shaded from injection to repair, coloured by kind.
  (function () {
    const box = document.getElementById('run-timeline-box');
    const rt = fo.run_timeline;
    if (!box || !rt || rt.slices.length === 0) return;
    const canvas = addCanvas(box, 'run-timeline', 'latency over the whole run with every fault shaded');
    draw(canvas, { type: 'line', data: { datasets: sliceDatasets(rt.slices, 0, 1) },
      options: { parsing: false, plugins: { title: title('latency per 1-s slice over the run; faults shaded by kind, from injection to repair'), shade: { areas: bandAreas(rt.bands) } },
        scales: sliceScales('seconds since the run\'s first request') } });
  })();

  // Probability of exceeding 0.1 s / 1 s / 2 s: the whole run and each configuration a fault touched.
  (function () {
    const perf = fo.performability;
    if (!perf) return;
    const rows = [Object.assign({}, perf.run, { config: 'whole run' })].concat(perf.configs.filter(p => p.faulty_invocations > 0 || p.goodput != null || p.failed > 0));
    draw('exceedance', { type: 'bar', data: { labels: rows.map(p => p.config), datasets: [
      { label: 'P(> 0.1 s)', data: rows.map(p => 100 * p.p_over_100ms), backgroundColor: color(0) },
      { label: 'P(> 1 s)', data: rows.map(p => 100 * p.p_over_1s), backgroundColor: color(3) },
      { label: 'P(> 2 s)', data: rows.map(p => 100 * p.p_over_2s), backgroundColor: color(1) }] },
      options: { plugins: { title: title('probability that a request exceeds a wait threshold (failed requests count as exceeding)') },
        scales: { x: { title: { display: true, text: 'configuration' }, ticks: { maxRotation: 90 } }, y: axis('requests (%)', false, { min: 0 }) } } });
  })();

  // Why slow: the slow requests of the slowest request's block broken down by span (seed 000's Figure 7, for every
  // one), and the block's timeline: its slow requests by cause above each process's recorded stalls.
  (function () {
    const t = summary.slow_timeline;
    if (!t) return;
    const SPANS = ['client-queue', 'failover', 'request-leg', 'server', 'statements', 'commit', 'database', 'reply-leg'];
    const slow = (summary.outliers || []).filter(o => o.block === t.block)
      .sort((a, b) => b.latency_us - a.latency_us);
    const spans = SPANS.filter(name => slow.some(o => o.spans_us && o.spans_us[name] != null));
    draw('outlier-spans', { type: 'bar', data: { labels: slow.map(o => o.client + '#' + o.seq + ' (' + o.cause + ')'),
      datasets: spans.map((name, i) => ({ label: name, backgroundColor: color(i),
        data: slow.map(o => ms(Math.max(0, (o.spans_us || {})[name] || 0))) })) },
      options: { indexAxis: 'y', plugins: { title: title(t.block + ': each slow request by span, slowest first; its cause in brackets') },
        scales: { x: axis('latency (ms)', false, { stacked: true }), y: { stacked: true, ticks: { autoSkip: false, font: { size: 9 } } } } } });
    const lanes = uniq(['slow requests'].concat(t.bars.map(b => b.lane)));
    const kinds = uniq(t.bars.map(b => b.lane === 'slow requests' ? 'slow: ' + b.kind : b.kind));
    const canvas = document.getElementById('slow-timeline');
    if (canvas) canvas.parentNode.style.height = Math.max(220, 60 + 28 * lanes.length) + 'px';
    draw('slow-timeline', { type: 'bar', data: { labels: lanes, datasets: kinds.map((k, i) => ({ label: k,
      backgroundColor: color(i), barPercentage: 0.8, categoryPercentage: 1, grouped: false,
      data: t.bars.filter(b => (b.lane === 'slow requests' ? 'slow: ' + b.kind : b.kind) === k)
        .map(b => ({ y: b.lane, x: [(b.start_epoch_us - t.from_epoch_us) / 1e6, Math.max(b.end_epoch_us - t.from_epoch_us, b.start_epoch_us - t.from_epoch_us + 1000) / 1e6], detail: b.detail })) })) },
      options: { indexAxis: 'y', plugins: { title: title(t.block + ': slow requests (by cause) and each process\'s stalls of 1 ms or more'),
        tooltip: { callbacks: { label: c => c.dataset.label + ': ' + (c.raw.detail || '') } } },
        scales: { x: axis('seconds since the block began', false, { min: 0, max: (t.to_epoch_us - t.from_epoch_us) / 1e6 }),
          y: { type: 'category', labels: lanes } } } });
  })();

  // --compare: ratios per configuration, and the fail-over phases of both runs.
  (function () {
    const c = summary.compare;
    if (!c) return;
    const rows = c.configs.filter(r => r.method === 'all');
    draw('compare-ratios', { type: 'bar', data: { labels: rows.map(r => r.config), datasets: [
      { label: 'mean ratio', data: rows.map(r => r.mean_ratio), backgroundColor: color(0) },
      { label: 'p99 ratio', data: rows.map(r => r.p99_ratio), backgroundColor: color(3) }] },
      options: { plugins: { title: title('this run ÷ ' + c.other_run + ' (below 1: this run faster)') },
        scales: { x: { title: { display: true, text: 'configuration' }, ticks: { maxRotation: 90 } }, y: axis('ratio (log)', true) } } });
    if (c.phases.length > 0) {
      draw('compare-phases', { type: 'bar', data: { labels: c.phases.map(p => p.name), datasets: [
        { label: 'this run (' + summary.run.failover_strategy + ')', data: c.phases.map(p => p.median_us == null ? null : ms(p.median_us)), backgroundColor: color(0) },
        { label: 'other run (' + c.other_failover_strategy + ')', data: c.phases.map(p => p.other_median_us == null ? null : ms(p.other_median_us)), backgroundColor: color(1) }] },
        options: { plugins: { title: title('fail-over phase medians, both runs') }, scales: { x: { title: { display: true, text: 'phase' } }, y: axis('median (ms, log)', true) } } });
    }
  })();

  // Record what was drawn: a canvas counts when some pixel is not transparent.
  const canvases = Array.from(document.querySelectorAll('canvas.plot'));
  let rendered = 0;
  canvases.forEach(c => {
    try {
      if (!charts[c.id]) { fail(c.id, 'no chart was drawn'); return; }
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < px.length; i += 4) { if (px[i] !== 0) { rendered++; return; } }
      fail(c.id, 'the canvas is blank');
    } catch (e) { fail(c.id, e); }
  });
  document.body.setAttribute('data-plots-expected', String(canvases.length));
  document.body.setAttribute('data-plots-rendered', String(rendered));
  if (errors.length > 0) {
    const pre = document.getElementById('report-errors');
    pre.hidden = false;
    pre.textContent = 'The report could not draw everything:\n' + errors.join('\n');
  }
})();
