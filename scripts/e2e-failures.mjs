// Prints each failed or flaky e2e test of the last run, from Playwright's JSON report
// (playwright.config.mjs writes build/e2e-report.json): scripts/test.sh shows these lines in its
// summary, at the end of the output, where a CI log that keeps only its tail still has them.
// Usage: node scripts/e2e-failures.mjs [report=build/e2e-report.json]
import { readFileSync } from 'node:fs';

const ERROR_LINES = 6; // of each failure's message: enough for the assertion and its values
const file = process.argv[2] ?? 'build/e2e-report.json';

function* specsOf(suite, titles = []) {
  const here = suite.title && !suite.title.endsWith('.mjs') ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) yield { spec, titles: [...here, spec.title], file: suite.file };
  for (const child of suite.suites ?? []) yield* specsOf(child, here);
}

const ESC = String.fromCharCode(27);
const plain = (text) => text.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), ''); // without the terminal colours

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`  (no e2e report: ${error.code ?? error.message})`);
  process.exit(0);
}
for (const suite of report.suites ?? [])
  for (const { spec, titles, file: specFile } of specsOf(suite))
    for (const t of spec.tests) {
      if (t.status === 'expected' || t.status === 'skipped') continue;
      console.log(`  ${t.status}: [${t.projectName}] ${specFile}:${spec.line} › ${titles.join(' › ')}`);
      const failed = t.results.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
      const message = failed.at(-1)?.error?.message ?? failed.at(-1)?.status ?? '';
      for (const line of plain(message).split('\n').slice(0, ERROR_LINES)) console.log(`      ${line}`);
    }
