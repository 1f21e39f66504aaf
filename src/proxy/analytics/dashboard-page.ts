/**
 * The club's analytics dashboard the proxy serves at `/partner/analytics/`: a static page, its stylesheet and its
 * script, the same on Node and on Workers (no files to read). The script asks for the analytics token once, keeps it
 * in `sessionStorage` (never in a URL), reads `../analytics.json` with it, and draws the funnel per poll and per
 * campaign, a chart over days (inline SVG) and a CSV download (fetched with the token, saved as a blob). Every value
 * from the reports is set as text.
 */

/** Its scripts and styles from this page's origin only, reads from it, no framing, no form posting anywhere. */
export const dashboardSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const dashboardHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Fan Polls analytics</title>
    <link rel="stylesheet" href="dashboard.css" />
    <script type="module" src="dashboard.js"></script>
  </head>
  <body>
    <header>
      <h1>Fan Polls analytics</h1>
      <button type="button" id="forget" hidden>Forget the token</button>
    </header>
    <main>
      <form id="sign-in" method="post" hidden>
        <label for="token">Analytics token (<code>FAN_POLLS_ANALYTICS_TOKEN</code>)</label>
        <input id="token" name="token" type="password" autocomplete="off" required />
        <button type="submit">Show the counts</button>
        <p id="sign-in-error" role="alert"></p>
      </form>
      <section id="report" hidden>
        <form id="range" method="post">
          <label>From <input id="from" type="date" required /></label>
          <label>To <input id="to" type="date" required /></label>
          <button type="submit">Show</button>
          <button type="button" id="csv">Download CSV</button>
        </form>
        <p id="status" role="status"></p>
        <h2>Per poll</h2>
        <table id="by-poll"></table>
        <h2>Per campaign</h2>
        <table id="by-campaign"></table>
        <h2>Over days</h2>
        <figure id="chart"></figure>
        <p class="note">
          Cards shown are reported by the pages (an estimate); sign-ins and votes are what this proxy did. Days are UTC.
        </p>
      </section>
    </main>
  </body>
</html>
`;

export const dashboardCss = `:root { color-scheme: light; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #14171f; background: #f6f7f9; }
body { margin: 0; }
[hidden] { display: none !important; }
header { display: flex; align-items: center; justify-content: space-between; padding: 12px 24px; background: #14171f; color: #fff; }
header h1 { font-size: 18px; margin: 0; }
main { padding: 16px 24px 40px; max-width: 1100px; }
form { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin: 12px 0; }
#sign-in { flex-direction: column; align-items: start; max-width: 420px; }
input { font: inherit; padding: 6px 8px; border: 1px solid #c3c8d2; border-radius: 6px; }
#token { width: min(320px, 100%); }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
button[type='button'] { background: #fff; color: #1d4ed8; }
header button { border-color: #fff; }
table { border-collapse: collapse; width: 100%; background: #fff; margin-bottom: 8px; }
th, td { padding: 6px 10px; border-bottom: 1px solid #e3e6ec; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; overflow-wrap: anywhere; }
thead th { background: #eef0f4; font-weight: 600; }
tfoot td { font-weight: 600; }
td .rate { color: #596070; font-size: 12px; margin-left: 4px; }
td .poll-id { display: block; color: #596070; font-size: 12px; }
figure { margin: 0; background: #fff; padding: 12px; }
svg { width: 100%; height: auto; }
.legend { display: flex; gap: 16px; font-size: 13px; margin-top: 6px; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.swatch.shown { background: #94a3b8; }
.swatch.signedIn { background: #1d4ed8; }
.swatch.voted { background: #c2410c; }
.note, #status { color: #596070; font-size: 13px; }
#sign-in-error { color: #b91c1c; }
`;

/** Plain browser JavaScript (the proxy serves it as it is, on Node and Workers). */
export const dashboardScript = `const tokenKey = 'fan-polls-analytics-token';
const funnel = [
  ['shown', 'Shown'],
  ['signInStarted', 'Sign-in started'],
  ['signedIn', 'Signed in'],
  ['voted', 'Voted'],
  ['accepted', 'Accepted'],
  ['refused', 'Refused'],
];
const lines = [['shown', 'Shown'], ['signedIn', 'Signed in'], ['voted', 'Voted']];
const colours = { shown: '#94a3b8', signedIn: '#1d4ed8', voted: '#c2410c' };
const dayMs = 86400000;
const $ = (id) => document.getElementById(id);

function storedToken() {
  try { return sessionStorage.getItem(tokenKey) || ''; } catch { return ''; }
}
function keepToken(token) {
  try { if (token) sessionStorage.setItem(tokenKey, token); else sessionStorage.removeItem(tokenKey); } catch {}
}
function day(time) { return new Date(time).toISOString().slice(0, 10); }

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function showSignIn(message) {
  $('report').hidden = true;
  $('forget').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message || '';
  $('token').focus();
}

async function report(format, group) {
  const query = new URLSearchParams({ from: $('from').value, to: $('to').value });
  if (group) query.set('group', group);
  const response = await fetch('../analytics.' + format + '?' + query, {
    headers: { Authorization: 'Bearer ' + storedToken() },
    cache: 'no-store',
  });
  if (response.status === 401) {
    keepToken('');
    showSignIn('That token was refused. Enter the analytics token again.');
    throw new Error('refused');
  }
  if (!response.ok) {
    let message = 'The report failed (' + response.status + ').';
    try { message = (await response.json()).error.message; } catch {}
    $('status').textContent = message;
    throw new Error('failed');
  }
  return format === 'json' ? response.json() : response.blob();
}

function sumBy(rows, keyOf) {
  const sums = new Map();
  for (const row of rows) {
    const key = keyOf(row);
    const sum = sums.get(key) || Object.fromEntries(funnel.map(([kind]) => [kind, 0]));
    for (const [kind] of funnel) sum[kind] += row[kind];
    sums.set(key, sum);
  }
  return [...sums].sort((a, b) => b[1].shown - a[1].shown || String(a[0]).localeCompare(String(b[0])));
}

function drawTable(table, heading, sums, totals) {
  table.replaceChildren();
  const head = element('thead');
  const headRow = element('tr');
  headRow.append(element('th', heading));
  for (const [, label] of funnel) headRow.append(element('th', label));
  head.append(headRow);
  const body = element('tbody');
  const row = (name, counts, into) => {
    const line = element('tr');
    line.dataset.key = name;
    line.append(element('td', name));
    funnel.forEach(([kind], index) => {
      const cell = element('td', String(counts[kind]));
      cell.dataset.kind = kind;
      const before = index > 0 && kind !== 'refused' ? counts[funnel[index - 1][0]] : 0;
      if (before > 0) cell.append(element('span', Math.round((100 * counts[kind]) / before) + '%', 'rate'));
      line.append(cell);
    });
    into.append(line);
  };
  for (const [name, counts] of sums) row(name, counts, body);
  const foot = element('tfoot');
  row('Total', totals, foot);
  table.append(head, body, foot);
}

function drawChart(rows, from, to) {
  const perDay = new Map(sumBy(rows, (row) => row.value));
  const days = [];
  for (let time = Date.parse(from); time <= Date.parse(to); time += dayMs) days.push(day(time));
  const width = 720;
  const height = 220;
  const pad = 32;
  const most = Math.max(1, ...days.map((each) => (perDay.get(each) || {}).shown || 0), ...days.map((each) => (perDay.get(each) || {}).signedIn || 0));
  const x = (index) => pad + (days.length < 2 ? 0 : (index * (width - 2 * pad)) / (days.length - 1));
  const y = (value) => height - pad - (value * (height - 2 * pad)) / most;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Shown, signed in and voted per day');
  const axis = document.createElementNS(ns, 'path');
  axis.setAttribute('d', 'M' + pad + ' ' + pad + 'V' + (height - pad) + 'H' + (width - pad));
  axis.setAttribute('stroke', '#c3c8d2');
  axis.setAttribute('fill', 'none');
  svg.append(axis);
  const label = (text, atX, atY, anchor) => {
    const made = document.createElementNS(ns, 'text');
    made.textContent = text;
    made.setAttribute('x', String(atX));
    made.setAttribute('y', String(atY));
    made.setAttribute('font-size', '11');
    made.setAttribute('fill', '#596070');
    made.setAttribute('text-anchor', anchor);
    svg.append(made);
  };
  label(String(most), pad - 4, pad + 4, 'end');
  label('0', pad - 4, height - pad + 4, 'end');
  label(days[0], pad, height - 8, 'start');
  label(days[days.length - 1], width - pad, height - 8, 'end');
  for (const [kind] of lines) {
    const line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', days.map((each, index) => x(index) + ',' + y((perDay.get(each) || {})[kind] || 0)).join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', colours[kind]);
    line.setAttribute('stroke-width', '2');
    // Signed in and voted often run together: the dashes keep both in sight.
    if (kind === 'signedIn') line.setAttribute('stroke-dasharray', '6 4');
    line.dataset.kind = kind;
    svg.append(line);
  }
  const legend = element('div', undefined, 'legend');
  for (const [kind, text] of lines) {
    const item = element('span');
    item.append(element('span', undefined, 'swatch ' + kind), document.createTextNode(text));
    legend.append(item);
  }
  $('chart').replaceChildren(svg, legend);
}

async function load() {
  $('sign-in').hidden = true;
  $('report').hidden = false;
  $('forget').hidden = false;
  $('status').textContent = 'Loading…';
  try {
    const [byCampaign, byDay] = await Promise.all([report('json', 'campaign'), report('json', 'day')]);
    const pollName = (poll) => (poll === null ? '(no poll named)' : poll);
    drawTable($('by-poll'), 'Poll', sumBy(byCampaign.rows, (row) => pollName(row.poll)), byCampaign.totals);
    drawTable($('by-campaign'), 'Campaign', sumBy(byCampaign.rows, (row) => (row.value === null ? '(none)' : row.value)), byCampaign.totals);
    drawChart(byDay.rows, byDay.from, byDay.to);
    await nameThePolls();
    $('status').textContent = 'From ' + byCampaign.from + ' to ' + byCampaign.to + '.';
    document.body.dataset.loaded = 'true';
  } catch {}
}

/** Each poll's question beside its id, from this proxy's public read (text only; the ids stay when it fails). */
async function nameThePolls() {
  const rows = [...$('by-poll').querySelectorAll('tbody tr')].filter((row) => /^[0-9a-f-]{36}$/i.test(row.dataset.key));
  if (rows.length === 0) return;
  const query = new URLSearchParams();
  for (const row of rows.slice(0, 50)) query.append('ids[]', row.dataset.key);
  try {
    const response = await fetch('../../api/polls?' + query, { credentials: 'omit' });
    if (!response.ok) return;
    const polls = (await response.json()).data;
    for (const row of rows) {
      const poll = Array.isArray(polls) ? polls.find((each) => each && each.id === row.dataset.key) : undefined;
      if (!poll || typeof poll.question !== 'string') continue;
      const cell = row.firstElementChild;
      cell.replaceChildren(element('span', poll.question, 'question'), element('span', row.dataset.key, 'poll-id'));
    }
  } catch {}
}

async function downloadCsv() {
  try {
    const blob = await report('csv', 'campaign');
    const url = URL.createObjectURL(blob);
    const link = element('a');
    link.href = url;
    link.download = 'fan-polls-analytics-' + $('from').value + '-' + $('to').value + '.csv';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch {}
}

$('to').value = day(Date.now());
$('from').value = day(Date.now() - 29 * dayMs);
$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  keepToken($('token').value.trim());
  $('token').value = '';
  void load();
});
$('range').addEventListener('submit', (event) => {
  event.preventDefault();
  void load();
});
$('csv').addEventListener('click', () => void downloadCsv());
$('forget').addEventListener('click', () => {
  keepToken('');
  showSignIn('');
});
if (storedToken()) void load();
else showSignIn('');
`;
