// The Wahlleiter console driven as a person uses it: Debian's headless Chromium through playwright-core (no
// browser download), axe-core (WCAG 2.0/2.1 level A and AA) on every page visited, and the main flow by
// keyboard alone (Tab to a field or button, Enter to follow or submit; every focused element must show its
// focus). Started by tests/browser/main.rs, which starts the worker and passes the scenario as JSON in
// NACHFOLGE_BROWSER_SCENARIO: {url, login, password, chromium, screenshots, downloads, phase, nrw: {...}, he: {...}}.
// `phase` is `vacancies` (the Wahlleitung reports both vacancies, on a worker clock days back) or `work`
// (everything after, on today's clock); the second test's `lot` (a tie reported) and `decisions` (the lot, a
// proposal confirmed, a review decision) with {lot: {...}, by: {...}, review: {...}}; the third test's `import`
// (an election result uploaded, corrected and taken over) with {election: {...}}.
//
// A flow is a list of steps, one function each (STEPS at the end). A step starts on the page the previous
// one left, reaches its page with the keyboard, calls `arrive` (status, heading, axe-core, screenshot) and
// checks what the page says. A new console page gets a new step function and a line in STEPS.
//
// Prints progress, then one line of JSON (the report); exits 1 on a failed expectation, an axe-core
// violation, a focus without visible indicator, or an error in the browser's console (e.g. a CSP refusal).

import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scenario = JSON.parse(process.env.NACHFOLGE_BROWSER_SCENARIO ?? 'null');
if (!scenario) {
  console.error('NACHFOLGE_BROWSER_SCENARIO is not set: run this through `cargo test --test browser`.');
  process.exit(2);
}
const AXE = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

const report = {
  pages: [], violations: [], focus: [], reflow: [], console: [], screenshots: [], downloads: {}, nrw: {}, he: {}, lot: {}, by: {},
};

/** A failed expectation: stops the flow. */
function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/** The focused element, described (in the page). */
async function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'BODY' };
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    const r = el.getBoundingClientRect();
    return {
      tag: el.tagName, id: el.id, type: el.getAttribute('type') ?? '', value: el.value ?? '',
      text: (el.innerText ?? el.textContent ?? '').trim().replace(/\s+/g, ' '),
      href: el.getAttribute('href') ?? '',
      visibleFocus: outline || s.boxShadow !== 'none',
      onScreen: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth,
    };
  });
}

/** Press Tab until the focused element matches; every element on the way must show its focus. */
async function tabTo(page, what, matches, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.tag !== 'BODY' && !f.visibleFocus) {
      report.focus.push({ page: page.url(), element: `${f.tag}#${f.id} „${f.text.slice(0, 60)}“` });
    }
    if (matches(f)) return f;
  }
  throw new Error(`Tab did not reach ${what} on ${page.url()} within ${max} presses`);
}

const link = (text) => (f) => f.tag === 'A' && f.text === text;
const linkStarting = (text) => (f) => f.tag === 'A' && f.text.startsWith(text);
const button = (text) => (f) => f.tag === 'BUTTON' && f.text === text;
const field = (id) => (f) => f.id === id;

/** Tab to a link or button and press Enter; waits for the page it leads to and returns its status. */
async function activate(page, what, matches) {
  await tabTo(page, what, matches);
  const [response] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  return response?.status();
}

/** Type an ISO date into the focused date field, its parts in the order the field shows them: German (day,
 *  month, year), or US (month, day, year) in a Chromium without German language files (Debian's package
 *  without chromium-l10n) — Shift+Tab goes back to the first part for the second try. */
async function typeDate(page, iso) {
  const [y, m, d] = iso.split('-');
  for (const parts of [[d, m, y], [m, d, y]]) {
    for (const part of parts) await page.keyboard.type(part);
    if ((await focused(page)).value === iso) return;
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
  }
  throw new Error(`${page.url()}: the date field does not take ${iso} from the keyboard`);
}

/** On a new page: its status and heading, axe-core, and (when named) a screenshot. */
async function arrive(page, { status, expected = 200, heading, shot, fullPage = false }) {
  expect(status === expected, `${page.url()}: status ${status}, expected ${expected}`);
  const h1 = (await page.locator('h1').innerText()).trim();
  expect(h1.includes(heading), `${page.url()}: heading „${h1}“, expected „${heading}“`);
  await page.evaluate(AXE);
  const result = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    AXE_TAGS,
  );
  const path = new URL(page.url()).pathname;
  report.pages.push(path);
  for (const v of result.violations) {
    report.violations.push({
      page: path, rule: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    });
  }
  console.log(`  ${path} – „${h1}“: ${result.violations.length} axe-core violation(s)`);
  if (shot) {
    const file = join(scenario.screenshots, `${shot}.png`);
    await page.screenshot({ path: file, fullPage });
    report.screenshots.push(file);
  }
  await reflows(page, path);
}

/** WCAG 1.4.10 (Reflow, not among axe-core's checks): at 320 CSS pixels wide (1280 at 400 % zoom) nothing
 *  outside a data table (excepted by the criterion: two-dimensional content) reaches past the window. */
async function reflows(page, path) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 640 });
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => !e.closest('table') && !e.classList.contains('skip') && e.getBoundingClientRect().right > innerWidth + 1)
      .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ''} „${(e.textContent ?? '').trim().slice(0, 40)}“`));
  await page.setViewportSize(size);
  for (const element of wide) report.reflow.push({ page: path, element });
}

/** The text of the page's main content, spaces collapsed. */
async function mainText(page) {
  return (await page.locator('main').innerText()).replace(/\s+/g, ' ');
}

/** axe-core must find what it is there to find: a page with an unlabelled field and no language. */
async function axeFindsViolations(page) {
  await page.setContent('<!DOCTYPE html><html><head><title>t</title></head><body><input type="text"></body></html>');
  await page.evaluate(AXE);
  const result = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    AXE_TAGS,
  );
  const rules = result.violations.map((v) => v.id);
  expect(rules.includes('label') && rules.includes('html-has-lang'), `axe-core self-check found only ${rules}`);
}

// ---- the steps ---------------------------------------------------------------------------------------------

/** The start page leads to the sign-in; the skip link comes first; a wrong password is answered accessibly. */
async function signIn(page) {
  const response = await page.goto(`${scenario.url}/`);
  await arrive(page, { status: response?.status(), heading: 'Anmeldung', shot: 'anmeldung' });
  expect(new URL(page.url()).pathname === '/anmelden', `the start page led to ${page.url()}`);
  const first = await tabTo(page, 'the skip link', () => true, 1);
  expect(first.tag === 'A' && first.href === '#inhalt' && first.onScreen, `first Tab: ${JSON.stringify(first)}`);
  const tries = scenario.phase === 'work' ? [`${scenario.password}-falsch`, scenario.password] : [scenario.password];
  for (const password of tries) {
    await tabTo(page, 'the login field', field('login'));
    await page.keyboard.type(scenario.login);
    await tabTo(page, 'the password field', field('password'), 1);
    await page.keyboard.type(password);
    // the first time Enter in the password field submits the form (implicit submission), then the button
    if (password === scenario.password) await tabTo(page, 'the sign-in button', button('Anmelden'), 1);
    const [response] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    if (password !== scenario.password) {
      await arrive(page, { status: response?.status(), expected: 401, heading: 'Anmeldung' });
      expect((await page.getByRole('alert').innerText()).includes('Fehler'), 'the wrong password is said in an alert');
    } else {
      await arrive(page, { status: response?.status(), heading: 'Vertretungen', shot: 'vertretungen' });
    }
  }
}

/** From the list of councils (or any page, through the main navigation) to a council. */
function openCouncil(c, shot) {
  return async (page) => {
    if (new URL(page.url()).pathname !== '/raete') {
      const status = await activate(page, 'the main navigation', link('Vertretungen'));
      await arrive(page, { status, heading: 'Vertretungen' });
    }
    const status = await activate(page, `the council ${c.name}`, link(c.name));
    await arrive(page, { status, heading: c.name, shot, fullPage: true });
    const text = await mainText(page);
    expect(text.includes('Offene Fälle') && text.includes('Nachrückerliste'), 'open cases and the Nachrückerliste');
    if (c.successor) expect(text.includes(c.successor.name), `the open case names ${c.successor.name}`);
  };
}

function openCase(c) {
  return async (page) => {
    const status = await activate(page, `the case ${c.case}`, link(c.case));
    await arrive(page, { status, heading: `Fall ${c.case}` });
  };
}

/** The Zustellung form → preview → confirm, the method chosen by typing its name into the list; `on` (ISO
 *  date), when given, typed into the date field (its parts in German order: day, month, year). */
function recordService(c, method, shot, on) {
  return async (page) => {
    let status = await activate(page, 'the service action', link('Zustellung der Benachrichtigung erfassen'));
    await arrive(page, { status, heading: 'Zustellung erfassen' });
    const candidate = await tabTo(page, 'the person served', field('candidate'));
    const successor = typeof c.successor === 'function' ? c.successor() : c.successor;
    if (successor.id) expect(candidate.value === successor.id, `prefilled with the successor: ${candidate.value}`);
    else expect(candidate.value !== '', 'prefilled with the successor');
    await tabTo(page, 'the method', field('method'), 1);
    await page.keyboard.type(method.label);
    expect((await focused(page)).value === method.code, `the method ${method.code} chosen by keyboard`);
    await tabTo(page, 'the day of service', field('on'), 1);
    if (on) await typeDate(page, on);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Zustellung erfassen', shot });
    const preview = await mainText(page);
    expect(preview.includes('Noch ist nichts erfasst'), 'the preview says nothing is recorded yet');
    expect(preview.includes(`Die Frist für ${successor.name} endet dann mit Ablauf des `), `the preview: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Zustellung erfassen' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes('endet mit Ablauf des'), `the result: ${done}`);
  };
}

/** A day of service in the future: the preview refuses it (422) with the core's reason in an alert, nothing is
 *  recorded; back to the case. */
function refusedService(c, on) {
  return async (page) => {
    let status = await activate(page, 'the service action', link('Zustellung der Benachrichtigung erfassen'));
    await arrive(page, { status, heading: 'Zustellung erfassen' });
    // nothing is preselected for the manner of service (issue 26 point 11): it must be chosen
    await tabTo(page, 'the method', field('method'));
    await page.keyboard.type('Postzustellungsurkunde');
    expect((await focused(page)).value === 'certificate', 'the method chosen by keyboard');
    await tabTo(page, 'the day of service', field('on'), 1);
    await typeDate(page, on);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, expected: 422, heading: 'Zustellung erfassen' });
    const alert = await page.getByRole('alert').innerText();
    expect(alert.includes('Der angegebene Tag liegt in der Zukunft.'), `the refusal in an alert: ${alert}`);
    status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}` });
  };
}

/** Back on the case page: the period after service, its end and the days left; saved as `last_day`. */
function seeDeadline(c, key) {
  return async (page) => {
    const status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}` });
    const periods = (await page.locator('section[aria-labelledby="fristen"]').innerText()).replace(/\s+/g, ' ');
    const m = periods.match(/Frist nach Zustellung am [\d.]+ – endet mit Ablauf des ((\d{2})\.(\d{2})\.(\d{4})) \(/);
    expect(m, `the period after service on the case page: ${periods}`);
    const left = periods.match(/Noch (\d+) Arbeitstage? \((\d+) Kalendertage?\) einschließlich heute/);
    expect(left, periods);
    // today and the last day included, as the page says
    const days = (Date.UTC(m[4], m[3] - 1, m[2]) - Date.parse(`${scenario.today}T00:00:00Z`)) / 86400000 + 1;
    expect(Number(left[2]) === days && Number(left[1]) <= days, `${days} calendar days from today: ${periods}`);
    expect(periods.includes('Fristende als Kalendereintrag (.ics)'), 'the period links its calendar entry');
    report[key].last_day = m[1];
  };
}

/** The council through the breadcrumb: the open case with its running period; then back to the case. */
function councilWithPeriod(c, key, shot) {
  return async (page) => {
    let status = await activate(page, 'the breadcrumb', link(c.name));
    await arrive(page, { status, heading: c.name, shot, fullPage: true });
    const open = (await page.locator('section[aria-labelledby="offen"]').innerText()).replace(/\s+/g, ' ');
    expect(open.includes(`endet mit Ablauf des ${report[key].last_day}`), `the open case's period: ${open}`);
    status = await activate(page, `the case ${c.case}`, link(c.case));
    await arrive(page, { status, heading: `Fall ${c.case}` });
  };
}

/** Erklärung: Ablehnung → preview names the next successor → confirm; saved as `next_successor`. */
function recordRefusal(c, key) {
  return async (page) => {
    let status = await activate(page, 'the declaration action', linkStarting('Erklärung (Annahme oder Ablehnung)'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    await tabTo(page, 'the kind of declaration', field('kind'));
    await page.keyboard.type('Ablehnung');
    expect((await focused(page)).value === 'refuse', 'Ablehnung chosen by keyboard');
    await tabTo(page, 'the time of receipt', field('received_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Erklärung erfassen', shot: 'vorschau-erklaerung' });
    const m = (await mainText(page)).match(/Nachfolge festgestellt: ([^.]+)\./);
    expect(m, 'the preview names the next successor');
    report[key].next_successor = m[1];
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    expect((await mainText(page)).includes(`Nachfolge: ${m[1]}`), 'the result shows the case with the next successor');
  };
}

/** The case page with the next successor in round 2, and its history (an entry's data opened by keyboard). */
function seeNextSuccessor(c, key) {
  return async (page) => {
    const status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}` });
    const facts = (await page.locator('dl.eckdaten').innerText()).replace(/\s+/g, ' ');
    expect(facts.includes(`Nachfolge ${report[key].next_successor}`) && facts.includes('Runde 2'), facts);
    const history = await page.locator('table.verlauf').innerText();
    for (const entry of ['Zustellung erfasst', 'Frist gesetzt', 'Erklärung eingegangen', 'Nachfolge festgestellt']) {
      expect(history.includes(entry), `the history lists „${entry}“`);
    }
    await tabTo(page, 'the data of a history entry', (f) => f.tag === 'SUMMARY');
    await page.keyboard.press('Enter');
    expect(await page.locator('table.verlauf details[open]').count() === 1, 'Enter opens the entry');
    await page.keyboard.press('Enter');
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: join(scenario.screenshots, 'fall-verlauf.png'), fullPage: true });
    report.screenshots.push(join(scenario.screenshots, 'fall-verlauf.png'));
  };
}

/** The council through the breadcrumb: the open case with its new successor, the Nachrückerliste. */
function councilAfterRefusal(c, key) {
  return async (page) => {
    const status = await activate(page, 'the breadcrumb', link(c.name));
    await arrive(page, { status, heading: c.name });
    const open = await page.locator('section[aria-labelledby="offen"]').innerText();
    expect(open.includes(report[key].next_successor), `the open case names the next successor: ${open}`);
  };
}

/** Hessen, a barred successor: member without voting right until she proves the bar's end (§ 34 Abs. 3,
 *  § 23 Abs. 2 KWG; docs/legal.md). */
function barredSuccessor(c) {
  return async (page) => {
    const facts = (await page.locator('dl.eckdaten').innerText()).replace(/\s+/g, ' ');
    expect(facts.includes('Nachweis ausstehend'), `the case says a proof is awaited: ${facts}`);
  };
}

/** The period for the proof on the Hessen case page (recording the proof itself is a later console action). */
function seeProofPeriod(c) {
  return async (page) => {
    const status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}`, shot: 'fall-frist' });
    const periods = (await page.locator('section[aria-labelledby="fristen"]').innerText()).replace(/\s+/g, ' ');
    const m = periods.match(/endet mit Ablauf des ((\d{2})\.(\d{2})\.(\d{4})) \(/);
    expect(m, `the period for the proof: ${periods}`);
    report.he.last_day = m[1];
    // said in words when it ends within three days (`urgent_days`): certainly so when the last day is at most
    // two days off (the period ends at its midnight), certainly not when four or more
    const left = (Date.UTC(m[4], m[3] - 1, m[2]) - Date.parse(`${scenario.today}T00:00:00Z`)) / 86400000;
    const urgent = periods.includes('Dringend:') && (await page.locator('.frist-dringend').count()) > 0;
    expect(left === 3 || urgent === left <= 2, `${left} days left, urgent: ${urgent}: ${periods}`);
    report.he.urgent = urgent;
  };
}

/** „Ausscheiden melden“ on the council page: the member and the reason chosen by typing their names, the time
 *  left as prefilled (now) → the preview names the successor the core determines → confirm → the new case.
 *  Saved: `case` (its id) and `successor` (the name the preview gave). */
function reportVacancy(c, key, shot) {
  return async (page) => {
    let status = await activate(page, 'the vacancy action', link('Ausscheiden eines Mitglieds melden'));
    await arrive(page, { status, heading: 'Ausscheiden melden' });
    await tabTo(page, 'the member', field('member'));
    await page.keyboard.type(c.member.name);
    expect((await focused(page)).value === c.member.id, `${c.member.name} chosen by keyboard`);
    await tabTo(page, 'the reason', field('departure'), 1);
    await page.keyboard.type(c.reason.label);
    expect((await focused(page)).value === c.reason.code, `the reason ${c.reason.code} chosen by keyboard`);
    await tabTo(page, 'the time of leaving', field('effective_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Ausscheiden melden', shot });
    const preview = await mainText(page);
    expect(preview.includes('Noch ist nichts erfasst'), 'the preview says nothing is recorded yet');
    expect(preview.includes(`${c.member.name} scheidet aus`), `the preview names the membership ending: ${preview}`);
    const m = preview.match(/Nachfolge festgestellt: ([^.]+)\./);
    expect(m, `the preview names the successor: ${preview}`);
    if (c.barred) expect(preview.includes('Ein Hinderungsgrund ist verzeichnet'), `the preview names the bar: ${preview}`);
    expect(preview.includes('beginnt erst mit der Zustellung'), `the period starts with service: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Ausscheiden melden' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes(`Nachfolge festgestellt: ${m[1]}.`), `the result: ${done}`);
    const to = await tabTo(page, 'the way to the new case', linkStarting('Zum Fall '));
    const [response] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    const id = to.text.slice('Zum Fall '.length);
    await arrive(page, { status: response?.status(), heading: `Fall ${id}` });
    report[key].case = id;
    report[key].successor = m[1];
  };
}

/** „Tatsache erfassen“ from the Nachrückerliste: a Hinderungsgrund of the candidate `c.bar` (Hessen § 37 HGO,
 *  e.g. „Beamtin der Stadt“), known before the vacancy; the Nachrückerliste then notes it in German. */
function recordBar(c) {
  return async (page) => {
    let status = await activate(page, `the fact action for ${c.bar.name}`, link(`Tatsache erfassen zu ${c.bar.name}`));
    await arrive(page, { status, heading: 'Tatsache erfassen' });
    const person = await tabTo(page, 'the person concerned', field('candidate'));
    expect(person.value === c.bar.id, `prefilled from the Nachrückerliste: ${person.value}`);
    await tabTo(page, 'the fact', field('fact'), 1);
    await page.keyboard.type('Hinderungsgrund');
    expect((await focused(page)).value === 'barred', 'Hinderungsgrund chosen by keyboard');
    await tabTo(page, 'the reason of the bar', field('reason'));
    await page.keyboard.type(c.bar.reason);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Tatsache erfassen' });
    expect((await mainText(page)).includes(c.bar.reason), 'the preview shows the reason');
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Tatsache erfassen' });
    expect((await mainText(page)).includes('Erfasst:'), 'the fact is recorded');
    status = await activate(page, 'the way back to the council', link(`Zurück zur Vertretung ${c.name}`));
    await arrive(page, { status, heading: c.name });
    const list = (await page.locator('section[aria-labelledby="nachrueckerliste"]').innerText()).replace(/\s+/g, ' ');
    expect(list.includes(`${c.bar.name}: hat einen Hinderungsgrund`), `the Nachrückerliste notes the bar: ${list}`);
    expect(!/[a-z]+_[a-z_]+ \(/.test(list), `no note is shown as its code: ${list}`);
  };
}

/** A link with `download` followed by Enter: the file saved under `scenario.downloads` as `name`, its path
 *  reported (the Rust test reads it: pdftotext, the announcement's text). */
async function download(page, what, matches, name) {
  await tabTo(page, what, matches);
  const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const path = join(scenario.downloads, name);
  await file.saveAs(path);
  expect((await file.failure()) === null, `${what}: the download failed`);
  report.downloads[name] = path;
  return file.suggestedFilename();
}

/** Round 2, on the case page of the next successor: the letter to him for service (PDF), downloaded. */
function downloadLetter(c, key) {
  return async (page) => {
    const shot = join(scenario.screenshots, 'fall-schreiben.png');
    await page.screenshot({ path: shot, fullPage: true });
    report.screenshots.push(shot);
    const docs = (await page.locator('section[aria-labelledby="schriftstuecke"]').innerText()).replace(/\s+/g, ' ');
    const name = report[key].next_successor;
    expect(docs.includes(`Schreiben an ${name} zur förmlichen Zustellung (PDF)`), `the letter is offered: ${docs}`);
    const file = await download(page, 'the letter', linkStarting(`Schreiben an ${name}`), 'schreiben.pdf');
    expect(/^schreiben-.+-2\.pdf$/.test(file), `the letter of round 2: ${file}`);
  };
}

/** From an action's result back to the case page. */
function backToCase(c) {
  return async (page) => {
    const status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}` });
  };
}

/** Erklärung: Annahme → the preview: membership and the announcement → confirm. */
function recordAcceptance(c, key) {
  return async (page) => {
    let status = await activate(page, 'the declaration action', linkStarting('Erklärung (Annahme oder Ablehnung)'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    const person = await tabTo(page, 'the person declaring', field('candidate'));
    expect(person.value !== '', 'prefilled with the successor');
    // nothing is preselected („Bitte wählen“); „Annahme“ is the next entry
    const kind = await tabTo(page, 'the kind of declaration', field('kind'), 1);
    expect(kind.value === '', `no kind preselected: ${kind.value}`);
    await page.keyboard.press('ArrowDown');
    expect((await focused(page)).value === 'accept', 'Annahme chosen by keyboard');
    await tabTo(page, 'the time of receipt', field('received_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    // „Angaben ändern“ leads back to the form with what was entered, and on to the preview again
    status = await activate(page, 'the way back to the form', button('Angaben ändern'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    const kept = await tabTo(page, 'the kind of declaration', field('kind'));
    expect(kept.value === 'accept', `the kind entered is kept: ${kept.value}`);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    const preview = await mainText(page);
    const name = report[key].next_successor;
    expect(preview.includes(`${name} wird Mitglied ab `), `the preview: membership: ${preview}`);
    expect(preview.includes('Bekanntmachung: '), `the preview: the announcement: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Erklärung erfassen' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes('Sitz besetzt seit'), `the result: ${done}`);
  };
}

/** The case page after the acceptance: the membership, no letter any more, the announcement as text. */
function seeMembership(c, key) {
  return async (page) => {
    const status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}` });
    const facts = (await page.locator('dl.eckdaten').innerText()).replace(/\s+/g, ' ');
    const name = report[key].next_successor;
    expect(facts.includes('Sitz besetzt seit') && facts.includes('Grundlage: Annahme der Wahl'), facts);
    const m = facts.match(new RegExp(`${name} \\([^)]+\\), Mitglied seit (\\d{2}\\.\\d{2}\\.\\d{4})`));
    expect(m, `the successor's membership: ${facts}`);
    report[key].member_since = m[1];
    const docs = (await page.locator('section[aria-labelledby="schriftstuecke"]').innerText()).replace(/\s+/g, ' ');
    expect(!docs.includes('Schreiben an'), `no letter once the seat is filled: ${docs}`);
    expect(/Bekanntmachung \d+: /.test(docs), `the announcement is listed: ${docs}`);
    expect(!(await mainText(page)).includes('Erklärung (Annahme oder Ablehnung) erfassen'), 'no declaration any more');
    await download(page, 'the announcement as text', linkStarting('Text'), 'bekanntmachung.txt');
  };
}

/** Hessen: no acceptance step (§ 34 KWG: a member with the determination), so no declaration is offered. */
function noDeclarationInHessen(c) {
  return async (page) => {
    const actions = (await page.locator('section[aria-labelledby="aktionen"]').innerText()).replace(/\s+/g, ' ');
    expect(!actions.includes('Erklärung'), `Hessen offers no declaration: ${actions}`);
    expect(actions.includes('Nachweis der Beseitigung des Hinderungsgrundes erfassen'), actions);
  };
}

/** Hessen: the proof that the bar ended (`bar.cured`), received now, within the period → full membership. */
function recordProof(c) {
  return async (page) => {
    let status = await activate(page, 'the proof action', link('Nachweis der Beseitigung des Hinderungsgrundes erfassen'));
    await arrive(page, { status, heading: 'Nachweis der Beseitigung des Hinderungsgrundes erfassen' });
    const person = await tabTo(page, 'the person proving', field('candidate'));
    expect(person.value === c.successor.id, `prefilled with the successor: ${person.value}`);
    await tabTo(page, 'the time of receipt', field('proven_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Nachweis der Beseitigung', shot: 'vorschau-nachweis' });
    const preview = await mainText(page);
    expect(preview.includes('Noch ist nichts erfasst') && preview.includes('Sitz besetzt seit'), `the preview: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Nachweis der Beseitigung' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes('Sitz besetzt seit'), `the result: ${done}`);
    status = await activate(page, 'the way back to the case', link(`Zurück zum Fall ${c.case}`));
    await arrive(page, { status, heading: `Fall ${c.case}` });
    const facts = (await page.locator('dl.eckdaten').innerText()).replace(/\s+/g, ' ');
    expect(facts.includes('Grundlage: Nachweis der Beseitigung des Hinderungsgrundes'), facts);
    expect(facts.includes(`${c.successor.name} (${c.successor.id}), Mitglied seit `), facts);
    const periods = await page.locator('section[aria-labelledby="fristen"]').innerText();
    expect(!periods.includes('Frist nach Zustellung'), `the period for the proof is over: ${periods}`);
  };
}

/** Choose a radio button of the group `name` by keyboard: Tab into the group (its first button), then the arrow
 *  keys to the one whose value is `value` (an arrow key checks the button it moves to), or Space when the
 *  first is the one. */
async function chooseRadio(page, name, value) {
  const first = await tabTo(page, `the group ${name}`, (f) => f.tag === 'INPUT' && f.type === 'radio' && f.id.startsWith(name));
  if (first.value === value) await page.keyboard.press('Space');
  for (let i = 0; i < 10 && (await focused(page)).value !== value; i++) await page.keyboard.press('ArrowDown');
  const checked = await page.evaluate(() => document.activeElement?.checked === true);
  const f = await focused(page);
  expect(f.value === value && checked, `${value} chosen by keyboard in ${name}: ${JSON.stringify(f)}`);
}

/** „Ausscheiden melden“ where the next places are tied (a majority election): the preview says the lot decides,
 *  and the new case waits for it. Saved: `case`. */
function reportVacancyToLot(c, key) {
  return async (page) => {
    let status = await activate(page, 'the vacancy action', link('Ausscheiden eines Mitglieds melden'));
    await arrive(page, { status, heading: 'Ausscheiden melden' });
    await tabTo(page, 'the member', field('member'));
    await page.keyboard.type(c.member.name);
    expect((await focused(page)).value === c.member.id, `${c.member.name} chosen by keyboard`);
    await tabTo(page, 'the reason', field('departure'), 1);
    await page.keyboard.type(c.reason.label);
    expect((await focused(page)).value === c.reason.code, `the reason ${c.reason.code} chosen by keyboard`);
    await tabTo(page, 'the time of leaving', field('effective_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Ausscheiden melden' });
    const preview = await mainText(page);
    expect(preview.includes('Noch ist nichts erfasst'), 'the preview says nothing is recorded yet');
    expect(!preview.includes('Nachfolge festgestellt'), `a tie: no successor yet: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Ausscheiden melden' });
    expect((await mainText(page)).includes('Erfasst:'), 'the vacancy is recorded');
    const to = await tabTo(page, 'the way to the new case', linkStarting('Zum Fall '));
    const [response] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    const id = to.text.slice('Zum Fall '.length);
    await arrive(page, { status: response?.status(), heading: `Fall ${id}` });
    report[key].case = id;
  };
}

/** „Ergebnis des Losentscheids erfassen“ (`lot.drawn`): the drawn candidate chosen among the tied ones by
 *  keyboard, the returning officer and the time as prefilled → the preview determines her or him → confirm. */
function recordLot(c, key) {
  return async (page) => {
    let status = await activate(page, 'the lot action', link('Ergebnis des Losentscheids erfassen'));
    await arrive(page, { status, heading: 'Losergebnis erfassen' });
    await chooseRadio(page, 'winner_', c.winner.id);
    const by = await tabTo(page, 'who drew the lot', field('drawn_by'));
    expect(by.value !== '', 'the returning officer prefilled');
    await tabTo(page, 'the time of the draw', field('drawn_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Losergebnis erfassen' });
    const preview = await mainText(page);
    expect(preview.includes(`Nachfolge festgestellt: ${c.winner.name}.`), `the preview: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Losergebnis erfassen' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes(`Nachfolge: ${c.winner.name}`), `the result: ${done}`);
    report[key].successor = c.winner.name;
  };
}

/** „Vorgeschlagene Nachfolge feststellen“ (`determination.confirmed`) for a proposal (`succession.proposed`). */
function confirmProposal(c, key) {
  return async (page) => {
    let status = await activate(page, 'the confirm action', link('Vorgeschlagene Nachfolge feststellen'));
    await arrive(page, { status, heading: 'Nachfolge feststellen' });
    const form = await mainText(page);
    expect(form.includes(`Vorgeschlagen ist in Runde 1: ${c.proposed.name}`), `the proposal: ${form}`);
    await tabTo(page, 'who confirms', field('confirmed_by'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type(c.confirmed_by);
    await tabTo(page, 'the time of the confirmation', field('confirmed_at'), 1);
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Nachfolge feststellen' });
    const preview = await mainText(page);
    expect(preview.includes(`Nachfolge festgestellt: ${c.proposed.name}.`), `the preview: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Nachfolge feststellen' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes(`Nachfolge: ${c.proposed.name}`), `the result: ${done}`);
    report[key].successor = c.proposed.name;
  };
}

/** „Entscheidung über einen Einspruch oder im Wahlprüfungsverfahren erfassen“ (`review.decided`) on a determined
 *  case: the determination confirmed by the Wahlleitung, unappealable; outcome, decider and finality chosen in
 *  their radio groups by keyboard. */
function recordReview(c) {
  return async (page) => {
    let status = await activate(page, 'the review action',
      link('Entscheidung über einen Einspruch oder im Wahlprüfungsverfahren erfassen'));
    await arrive(page, { status, heading: 'Entscheidung im Prüfungsverfahren erfassen' });
    await chooseRadio(page, 'outcome_', 'confirmed');
    await chooseRadio(page, 'decided_by_', 'officer');
    await tabTo(page, 'the time of the decision', field('decided_at'));
    await chooseRadio(page, 'final_', 'true');
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Entscheidung im Prüfungsverfahren erfassen' });
    const preview = await mainText(page);
    expect(preview.includes('Noch ist nichts erfasst'), `the preview: ${preview}`);
    status = await activate(page, 'the confirm button', button('Verbindlich erfassen'));
    await arrive(page, { status, heading: 'Entscheidung im Prüfungsverfahren erfassen' });
    const done = await mainText(page);
    expect(done.includes('Erfasst:') && done.includes(`Nachfolge: ${c.successor.name}`), `the result: ${done}`);
  };
}

/** „Wahlergebnis übernehmen“ (issue #24): from the councils to the upload form; the published files chosen
 *  (the file chooser is the one thing not driven by keyboard: Playwright sets the files of the focused input),
 *  the body's facts typed in; the preview with its seats and report; one seat corrected in the correction form
 *  and an e-mail address added; confirmed; on to the council. Saved: `seats`, `persons`. */
function importElection(c) {
  return async (page) => {
    let status = await activate(page, 'the import link', link('Wahlergebnis übernehmen'));
    await arrive(page, { status, heading: 'Wahlergebnis übernehmen', shot: 'wahlergebnis-hochladen', fullPage: true });
    await tabTo(page, 'the files', field('dateien'));
    await page.setInputFiles('#dateien', c.files);
    await tabTo(page, 'the Land', field('land'));
    await page.keyboard.type(c.land_name);
    expect((await focused(page)).value === c.land, `${c.land_name} chosen by keyboard`);
    for (const [id, value] of [['body', c.body], ['name', c.name]]) {
      await tabTo(page, id, field(id));
      await page.keyboard.type(value);
    }
    await tabTo(page, 'the start of the term', field('term_start'));
    await typeDate(page, c.term_start);
    await tabTo(page, 'the end of the term', field('term_end'), 5);
    await typeDate(page, c.term_end);
    for (const [id, value] of [['officer_name', c.officer.name], ['officer_email', c.officer.email],
      ['officer_address', c.officer.address], ['court_name', c.court.name], ['court_address', c.court.address]]) {
      await tabTo(page, id, field(id));
      await page.keyboard.type(value);
    }
    status = await activate(page, 'the preview button', button('Weiter zur Vorschau'));
    await arrive(page, { status, heading: 'Wahlergebnis übernehmen', shot: 'vorschau-wahlergebnis' });
    let text = await mainText(page);
    expect(text.includes('Noch ist nichts übernommen'), `the preview says nothing is taken over yet: ${text.slice(0, 600)}`);
    expect(text.includes(`${c.seats} Sitze`) && text.includes('Bericht des Imports'), `seats and report: ${text.slice(0, 1200)}`);
    expect(text.includes('Zu bestätigen oder zu ergänzen'), 'the points to confirm');
    // the correction: the seat of `from` goes to `to`, who gets an e-mail address
    await tabTo(page, 'the first correction', field('k0_id'));
    await page.keyboard.type(c.correction.from);
    await tabTo(page, 'its seat', field('k0_sitz'), 1);
    await page.keyboard.type('kein Sitz');
    expect((await focused(page)).value === 'kein', 'no seat chosen by keyboard');
    await tabTo(page, 'the second correction', field('k1_id'));
    await page.keyboard.type(c.correction.to);
    await tabTo(page, 'its seat', field('k1_sitz'), 1);
    await page.keyboard.type('Sitz durch Personenstimmen');
    expect((await focused(page)).value === 'personal_vote', 'the seat by personal votes chosen by keyboard');
    await tabTo(page, 'its e-mail address', field('k1_email'), 1);
    await page.keyboard.type(c.correction.email);
    status = await activate(page, 'the correction button', button('Korrekturen übernehmen und Vorschau erneuern'));
    await arrive(page, { status, heading: 'Wahlergebnis übernehmen' });
    const row = (id) => page.locator('tr', { has: page.locator('td.kennung', { hasText: id }) }).first().innerText();
    const to = (await row(c.correction.to)).replace(/\s+/g, ' ');
    expect(to.includes('durch Personenstimmen') && to.includes(c.correction.email), `the corrected row: ${to}`);
    const from = (await row(c.correction.from)).replace(/\s+/g, ' ');
    expect(!from.includes('durch Personenstimmen'), `the seat taken: ${from}`);
    text = await mainText(page);
    expect(text.includes(`${c.seats} Sitze`), 'still all seats');
    status = await activate(page, 'the confirm button', button('Wahlergebnis verbindlich übernehmen'));
    await arrive(page, { status, heading: 'Wahlergebnis übernehmen' });
    text = await mainText(page);
    expect(text.includes('Übernommen:') && text.includes(c.name), `the result: ${text}`);
    status = await activate(page, 'the way to the council', link(`Zur Vertretung ${c.name}`));
    await arrive(page, { status, heading: c.name, shot: 'rat-uebernommen' });
    text = await mainText(page);
    expect(text.includes('Nachrückerliste'), `the council with its Nachrückerliste: ${text.slice(0, 600)}`);
    report.import = { seats: c.seats };
  };
}

/** An address typed by hand for a council without a role: the error page, and the way back by keyboard. */
async function notFound(page) {
  const response = await page.goto(`${scenario.url}/raete/keine-solche-vertretung`);
  await arrive(page, { status: response?.status(), expected: 404, heading: 'Nicht gefunden' });
  const status = await activate(page, 'the way to the start page', link('Zur Startseite'));
  await arrive(page, { status, heading: 'Vertretungen' });
}

async function signOut(page) {
  const status = await activate(page, 'the sign-out button', button('Abmelden'));
  await arrive(page, { status, heading: 'Anmeldung' });
}

const { nrw, he, lot, by, review, election } = scenario;
// the next NRW successor, known by the name the refusal's preview gave
const nrw2 = { ...nrw, successor: () => ({ name: report.nrw.next_successor }) };
// functions: a phase's steps are made only for its own scenario
const PHASES = {
  // the worker's clock days back: the Wahlleitung reports both vacancies (the successors are notified then)
  vacancies: () => [
    ['sign in', signIn],
    ['NRW: the council', openCouncil(nrw)],
    ['NRW: report the vacancy', reportVacancy(nrw, 'nrw', 'vorschau-ausscheiden')],
    ['Hessen: the council', openCouncil(he)],
    ['Hessen: a Hinderungsgrund from the Nachrückerliste', recordBar(he)],
    ['Hessen: report the vacancy', reportVacancy(he, 'he')],
    ['sign out', signOut],
  ],
  // today: everything after
  work: () => [
    ['axe-core finds violations (self-check)', axeFindsViolations],
    ['sign in (keyboard)', signIn],
    ['NRW: the council', openCouncil(nrw)],
    ['NRW: the case', openCase(nrw)],
    ['NRW: a day of service in the future is refused', refusedService(nrw, nrw.tomorrow)],
    ['NRW: record service', recordService(nrw, { code: 'certificate', label: 'Postzustellungsurkunde' }, 'vorschau-zustellung')],
    ['NRW: see the deadline', seeDeadline(nrw, 'nrw')],
    ['NRW: the council with the running period', councilWithPeriod(nrw, 'nrw', 'rat')],
    ['NRW: record the refusal', recordRefusal(nrw, 'nrw')],
    ['NRW: see the next successor and the history', seeNextSuccessor(nrw, 'nrw')],
    ['NRW: the council after the refusal', councilAfterRefusal(nrw, 'nrw')],
    ['NRW: the case of the next successor', openCase(nrw)],
    ['NRW: download the letter to the next successor', downloadLetter(nrw, 'nrw')],
    ['NRW: record service for the next successor', recordService(nrw2, { code: 'certificate', label: 'Postzustellungsurkunde' })],
    ['NRW: back to the case', backToCase(nrw)],
    ['NRW: record the acceptance', recordAcceptance(nrw, 'nrw')],
    ['NRW: the membership and the announcement', seeMembership(nrw, 'nrw')],
    ['Hessen: the council', openCouncil(he)],
    ['Hessen: the case of a barred successor', openCase(he)],
    ['Hessen: awaiting the proof', barredSuccessor(he)],
    ['Hessen: no declaration is offered', noDeclarationInHessen(he)],
    ['Hessen: record service (the acknowledgement dated days ago)',
      recordService(he, { code: 'acknowledgement', label: 'Empfangsbekenntnis' }, undefined, he.served_on)],
    ['Hessen: the period for the proof', seeProofPeriod(he)],
    ['Hessen: record the proof', recordProof(he)],
    ['a council without a role', notFound],
    ['sign out', signOut],
  ],
  // the second test, the worker's clock minutes back: a tie in a majority election reported, the lot requested
  lot: () => [
    ['sign in', signIn],
    ['tie: the council', openCouncil(lot)],
    ['tie: report the vacancy (the lot decides)', reportVacancyToLot(lot, 'lot')],
    ['sign out', signOut],
  ],
  // the third test: the published files of an election uploaded, a seat corrected, taken over
  import: () => [
    ['sign in', signIn],
    ['take over an election result', importElection(election)],
    ['sign out', signOut],
  ],
  // the second test, today: the lot, a proposal and a review decision
  decisions: () => [
    ['sign in', signIn],
    ['tie: the council', openCouncil(lot)],
    ['tie: the case awaiting the lot', openCase(lot)],
    ['tie: record the lot', recordLot(lot, 'lot')],
    ['tie: back to the case', backToCase(lot)],
    ['Bayern: the council', openCouncil(by)],
    ['Bayern: the case with a proposal', openCase(by)],
    ['Bayern: confirm the proposed successor', confirmProposal(by, 'by')],
    ['Bayern: back to the case', backToCase(by)],
    ['NRW: the council', openCouncil(review)],
    ['NRW: the determined case', openCase(review)],
    ['NRW: record a review decision', recordReview(review)],
    ['NRW: back to the case', backToCase(review)],
    ['sign out', signOut],
  ],
};
const STEPS = PHASES[scenario.phase]?.();
if (!STEPS) {
  console.error(`unknown phase ${scenario.phase}: one of ${Object.keys(PHASES).join(', ')}`);
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'nachfolge-chromium-'));
let failure = null;
let context = null;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: scenario.chromium, headless: true, args: ARGS,
    viewport: { width: 1280, height: 900 }, locale: 'de-DE', timezoneId: 'Europe/Berlin',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // generous: CI runs this beside other test binaries on two shared cores (a debug build hashes passwords)
  page.setDefaultTimeout(60000);
  // script errors and CSP refusals; a page's own status is checked by `arrive`, a sub-resource's here
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) report.console.push(`${page.url()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'document' && r.status() >= 400) report.console.push(`${r.url()}: status ${r.status()}`);
  });
  page.on('pageerror', (e) => report.console.push(`${page.url()}: ${e.message}`));
  for (const [name, step] of STEPS) {
    console.log(`step: ${name}`);
    await step(page);
  }
} catch (e) {
  failure = e;
  console.error(`FAILED: ${e.stack ?? e}`);
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
}
for (const v of report.violations) {
  console.error(`axe-core: ${v.page}: ${v.rule} (${v.impact}): ${v.help}\n    ${v.nodes.join('\n    ')}`);
}
for (const f of report.focus) console.error(`focus not visible: ${f.page}: ${f.element}`);
for (const r of report.reflow) console.error(`wider than 320 CSS pixels: ${r.page}: ${r.element}`);
for (const c of report.console) console.error(`browser console: ${c}`);
console.log(JSON.stringify(report));
const ok = !failure && [report.violations, report.focus, report.reflow, report.console].every((l) => l.length === 0);
process.exit(ok ? 0 : 1);
