/**
 * Child process for one tool on one file, so a tool that hangs can be killed and each tool's
 * memory is measured in a fresh process:
 *   node --import tsx run-tool.ts <tool> <target JSON> <maxRuns> <budgetMs>
 * Prints one JSON line: {timesMs, outcome, peakBytes}; peakBytes is the RSS growth of the first
 * (cold) run over the RSS after loading both tools; timesMs are the warm runs that follow.
 */
import { runTool } from "./competitors";
import type { Target, Tool } from "./competitors";

const [tool, targetJson, maxRunsArg, budgetArg] = process.argv.slice(2) as [Tool, string, string, string];
const target = JSON.parse(targetJson) as Target;
const maxRuns = Number(maxRunsArg);
const budgetMs = Number(budgetArg);

// app-info-parser logs on odd input (endlessly, on some hostile APKs); only our JSON goes out.
const mute = () => {};
console.log = mute;
console.warn = mute;
console.error = mute;
console.info = mute;

const baseline = process.memoryUsage().rss;
let sampled = baseline;
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage().rss);
}, 2);

const timesMs: number[] = [];
let outcome = await (async () => {
  const start = performance.now();
  const result = await runTool(tool, target);
  timesMs.push(performance.now() - start);
  return result;
})();
clearInterval(sampler);
// maxRSS also catches peaks inside synchronous work the sampler could not see.
const peakBytes = Math.max(0, Math.max(sampled, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024) - baseline);

// The first run paid for cold code paths (and was the memory measurement). Time warm runs,
// unless one run is already slow enough that repeating it only costs wall time.
if (timesMs[0]! < budgetMs / 4) timesMs.length = 0;
let spent = timesMs.reduce((a, b) => a + b, 0);
while (timesMs.length < maxRuns && spent < budgetMs) {
  const start = performance.now();
  outcome = await runTool(tool, target);
  const ms = performance.now() - start;
  timesMs.push(ms);
  spent += ms;
}
process.stdout.write(`\n${JSON.stringify({ timesMs, outcome, peakBytes })}\n`);
process.exit(0);
