// How far two benchmark runs disagree: for every scenario, driver and
// measure, the two median ratios to raw and the difference between them.
//   node bench/compare.mjs <first.json> <second.json>
import { readFileSync } from 'node:fs';

const [first, second] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')).results);
let widest = { gap: 0 };
const lines = ['| scenario | driver | measure | first | second | gap |', '|---|---|---|---|---|---|'];
for (const [scenario, { rows }] of Object.entries(first)) {
  const other = second[scenario];
  // The gateway scenarios have sides, not rows to a floor.
  if (!rows || !other?.rows) continue;
  for (const row of rows.filter((candidate) => candidate.driver !== 'raw')) {
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
console.log(lines.join('\n'));
console.log(`\nwidest gap: ${widest.gap.toFixed(2)}${widest.where ? ` (${widest.where})` : ''}`);
