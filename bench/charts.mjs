// Pictures of the benchmark's curves: one SVG per entry of latest.json's
// `curves` (any curve of that shape, whoever adds it), written by hand so
// that drawing needs no package. Both axes are logarithmic; each driver
// has a colour, time a solid line and client CPU a dashed one.
//
//   node bench/charts.mjs [bench/results/latest.json]   (bench/run.mjs calls it too)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DRIVERS = [
  { name: 'raw', colour: '#555555' },
  { name: 'official', colour: '#d95f02' },
  { name: 'rxmcp', colour: '#1b7fd9' },
];
const WIDTH = 720;
const HEIGHT = 420;
const PLOT = { left: 80, right: WIDTH - 170, top: 50, bottom: HEIGHT - 70 };

/** The file name of a curve's picture, next to latest.json. */
export const pictureOf = (curve) => `curve-${curve.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.svg`;

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const number = (value) => (value >= 1000 ? value.toLocaleString('en-US') : String(Number(value.toPrecision(3))));

// Where ticks go on a log axis from `low` to `high`: 1, 2 and 5 of each
// decade while there are few decades, the decades alone past three.
function logTicks(low, high) {
  const steps = Math.log10(high / low) > 3 ? [1] : [1, 2, 5];
  const ticks = [];
  for (let decade = Math.floor(Math.log10(low)); decade <= Math.ceil(Math.log10(high)); decade++) {
    for (const step of steps) {
      const value = step * 10 ** decade;
      if (value >= low * 0.999 && value <= high * 1.001) ticks.push(value);
    }
  }
  return ticks;
}

/** One curve as an SVG document. */
export function chart(curve) {
  const drivers = DRIVERS.filter((driver) => curve.points.some((point) => Number.isFinite(point[driver.name])));
  const values = curve.points.flatMap((point) => drivers.flatMap((driver) => [point[driver.name], point[`${driver.name}Cpu`]])).filter((value) => value > 0);
  const yLow = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const yHigh = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  // x is logarithmic when every x is a positive number; else the points are spaced evenly.
  const numeric = curve.points.every((point) => typeof point.x === 'number' && point.x > 0);
  const xs = curve.points.map((point, i) => (numeric ? Math.log10(point.x) : i));
  const xLow = Math.min(...xs);
  const xSpan = Math.max(...xs) - xLow || 1;
  const px = (i) => PLOT.left + 20 + ((xs[i] - xLow) / xSpan) * (PLOT.right - PLOT.left - 40);
  const py = (value) => PLOT.bottom - ((Math.log10(value) - Math.log10(yLow)) / Math.log10(yHigh / yLow)) * (PLOT.bottom - PLOT.top);

  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escape(`Cost against ${curve.name}`)}</text>`,
  ];
  for (const tick of logTicks(yLow, yHigh)) {
    const y = py(tick).toFixed(1);
    parts.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${y}" y2="${y}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${PLOT.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${escape(number(tick))}</text>`);
  }
  for (const [i, point] of curve.points.entries()) {
    const x = px(i).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${PLOT.top}" y2="${PLOT.bottom}" stroke="#f0f0f0"/>`);
    parts.push(`<text x="${x}" y="${PLOT.bottom + 18}" text-anchor="middle">${escape(point.label ?? (typeof point.x === 'number' ? number(point.x) : point.x))}</text>`);
  }
  parts.push(`<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#888"/>`);
  parts.push(`<text x="${(PLOT.left + PLOT.right) / 2}" y="${HEIGHT - 28}" text-anchor="middle">${escape(curve.x)}${numeric ? ' (log scale)' : ''}</text>`);
  parts.push(
    `<text transform="translate(22 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">${escape(curve.unit)} (log scale)</text>`,
  );
  for (const driver of drivers) {
    for (const [suffix, dash] of [
      ['', ''],
      ['Cpu', ' stroke-dasharray="6 4"'],
    ]) {
      const points = curve.points.map((point, i) => [px(i), point[`${driver.name}${suffix}`]]).filter(([, value]) => value > 0);
      const path = points.map(([x, value]) => `${x.toFixed(1)},${py(value).toFixed(1)}`).join(' ');
      parts.push(`<polyline points="${path}" fill="none" stroke="${driver.colour}" stroke-width="2"${dash}/>`);
      for (const [x, value] of points) {
        parts.push(`<circle cx="${x.toFixed(1)}" cy="${py(value).toFixed(1)}" r="3" fill="${suffix ? 'white' : driver.colour}" stroke="${driver.colour}" stroke-width="1.5"/>`);
      }
    }
  }
  // The legend: a colour per driver, then what solid and dashed mean.
  const legend = PLOT.right + 20;
  drivers.forEach((driver, i) => {
    const y = PLOT.top + 10 + i * 22;
    parts.push(`<line x1="${legend}" x2="${legend + 26}" y1="${y}" y2="${y}" stroke="${driver.colour}" stroke-width="3"/>`);
    parts.push(`<text x="${legend + 34}" y="${y}" dominant-baseline="middle">${escape(driver.name)}</text>`);
  });
  const key = PLOT.top + 10 + drivers.length * 22 + 14;
  parts.push(`<line x1="${legend}" x2="${legend + 26}" y1="${key}" y2="${key}" stroke="#333" stroke-width="2"/>`);
  parts.push(`<text x="${legend + 34}" y="${key}" dominant-baseline="middle">time</text>`);
  parts.push(`<line x1="${legend}" x2="${legend + 26}" y1="${key + 22}" y2="${key + 22}" stroke="#333" stroke-width="2" stroke-dasharray="6 4"/>`);
  parts.push(`<text x="${legend + 34}" y="${key + 22}" dominant-baseline="middle">client CPU</text>`);
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** Writes one SVG per curve of a latest.json into `directory`; answers the files written. */
export function writeCharts(results, directory) {
  return (results.curves ?? [])
    .filter((curve) => curve.points?.length)
    .map((curve) => {
      const file = join(directory, pictureOf(curve));
      writeFileSync(file, chart(curve));
      return file;
    });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');
  for (const written of writeCharts(JSON.parse(readFileSync(file, 'utf8')), dirname(file))) process.stdout.write(`wrote ${written}\n`);
}
