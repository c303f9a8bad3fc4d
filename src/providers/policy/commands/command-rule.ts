import { CHECKS, commandsOf, type EffectiveCommand, programMatch } from './commands.js';
import { all, type Tri } from '../tri.js';

// The parts of a rule and of a call's facts read here (rules.ts has the
// whole of each, and imports this file).
interface CommandNarrowers {
  command?: string;
  args?: string[];
  argsAny?: string[];
  check?: string;
}
interface CallFacts {
  args: Record<string, unknown>;
}

/**
 * Whether a rule's command narrowers (`command`, `args`, `argsAny`,
 * `check`) hold for a call. A call that names no program cannot be running
 * one (`no`); a program that cannot be read is unknown; the rule holds for
 * the call only if it holds for every program the call runs, and is
 * unknown when it holds for some and not others.
 */
export function commandNarrowersHold(rule: CommandNarrowers, facts: CallFacts): Tri {
  const commands = commandsIn(facts);
  return commands === undefined ? 'no' : uniform(commands.map((command) => (command ? commandHolds(rule, command) : 'unknown')));
}

// Read once per decision, however many rules look at the commands it runs.
const commands = new WeakMap<CallFacts, Array<EffectiveCommand | undefined> | undefined>();
function commandsIn(facts: CallFacts): Array<EffectiveCommand | undefined> | undefined {
  if (!commands.has(facts)) commands.set(facts, commandsOf(facts.args));
  return commands.get(facts);
}

// `yes` when all are, `no` when all are (or there are none), else unknown:
// a rule that holds for some of a call's programs and not others neither
// allows the call nor clears it.
function uniform(values: Tri[]): Tri {
  if (values.every((value) => value === 'yes') && values.length > 0) return 'yes';
  return values.every((value) => value === 'no') ? 'no' : 'unknown';
}

function commandHolds(rule: CommandNarrowers, command: EffectiveCommand): Tri {
  const { program, argv } = command;
  const results: Tri[] = [];
  if (rule.command !== undefined) {
    const match = programMatch(rule.command, program);
    // A program named by a path may be any file of that name: it is the rule's program only perhaps.
    results.push(command.byPath && match === 'yes' ? 'unknown' : match);
  }
  if (rule.args !== undefined) results.push(all(rule.args.map((word, i) => (i >= argv.length ? 'no' : argv[i] === undefined ? 'unknown' : argv[i] === word ? 'yes' : 'no'))));
  if (rule.argsAny !== undefined) results.push(any(rule.argsAny.map((wanted) => any(argv.map((word) => wordIs(word, wanted))))));
  if (rule.check !== undefined) results.push((CHECKS[rule.check] as (command: EffectiveCommand) => Tri)(command));
  return all(results);
}

function any(values: Tri[]): Tri {
  return values.includes('yes') ? 'yes' : values.includes('unknown') ? 'unknown' : 'no';
}

// Whether an argument is the wanted word: exactly, or `--name=value` for
// `--name`; unknown when it may be, as a short flag inside a group (`-vf`
// for `-f`) or an abbreviated long option (`--forc` for `--force`).
function wordIs(word: string | undefined, wanted: string): Tri {
  if (word === undefined) return 'unknown';
  if (word === wanted || (wanted.startsWith('--') && word.startsWith(`${wanted}=`))) return 'yes';
  if (/^-[^-]$/.test(wanted) && /^-[^-]/.test(word) && word.includes(wanted.slice(1))) return 'unknown';
  if (wanted.startsWith('--') && word.startsWith('--') && word.length > 2 && wanted.startsWith(word.split('=')[0] as string)) return 'unknown';
  return 'no';
}
