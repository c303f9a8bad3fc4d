// How far two benchmark runs disagree: for every scenario, driver and
// measure, and every curve's point, the two median ratios to raw and the
// difference between them.
//   node bench/compare.mjs <first.json> <second.json>
import { readFileSync } from 'node:fs';

const [firstRun, secondRun] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')));
const [first, second] = [firstRun.results, secondRun.results];
let widest = { gap: 0 };
const lines = ['| scenario | driver | measure | first | second | gap |', '|---|---|---|---|---|---|'];
for (const [scenario, { rows }] of Object.entries(first)) {
  const other = second[scenario];
  // The gateway scenarios have sides, not rows to a floor.
  if (!rows || !other?.rows) continue;
  // Rows without measures (the scale tables' own shapes) are left out.
  for (const row of rows.filter((candidate) => candidate.driver !== 'raw' && candidate.measures)) {
    const twin = other.rows.find((candidate) => candidate.driver === row.driver);
    for (const [measure, { ratioMedian }] of Object.entries(row.measures)) {
      // A measure one run has and the other lacks (an older run) is left out.
      const again = twin?.measures[measure]?.ratioMedian;
      if (again === undefined) continue;
      const gap = Math.abs(again - ratioMedian);
      lines.push(`| ${scenario} | ${row.driver} | ${measure} | ${ratioMedian.toFixed(2)}x | ${again.toFixed(2)}x | ${gap.toFixed(2)} |`);
      if (gap > widest.gap) widest = { gap, where: `${scenario}, ${row.driver}, ${measure}` };
    }
  }
}
// The curves: every ratio to raw (time and CPU) at every point both runs have.
for (const curve of firstRun.curves ?? []) {
  const other = (secondRun.curves ?? []).find((candidate) => candidate.name === curve.name);
  for (const point of other ? curve.points : []) {
    const twin = other.points.find((candidate) => candidate.x === point.x);
    for (const key of Object.keys(point).filter((name) => name.endsWith('Ratio'))) {
      if (twin?.[key] === undefined) continue;
      const gap = Math.abs(twin[key] - point[key]);
      const where = `${curve.name} curve, x = ${point.label ?? point.x}`;
      lines.push(`| ${where} | ${key.replace(/(Cpu)?Ratio$/, '')} | ${key.endsWith('CpuRatio') ? 'cpu' : 'time'} | ${point[key].toFixed(2)}x | ${twin[key].toFixed(2)}x | ${gap.toFixed(2)} |`);
      if (gap > widest.gap) widest = { gap, where: `${where}, ${key}` };
    }
  }
}
console.log(lines.join('\n'));
console.log(`\nwidest gap: ${widest.gap.toFixed(2)}${widest.where ? ` (${widest.where})` : ''}`);
