/**
 * `npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile> [top]`: where a
 * V8 CPU profile (node --cpu-prof) spent its time, as self time per module
 * (a package under node_modules, a Node internal, or a file of ours) and per
 * function, with shares of the sampled time. Used to profile the page cache
 * (docs/decisions/029) before and after a change.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The module a frame belongs to: `pkg:<name>` for node_modules, `node:<internal>`, a project path, or V8's own (program, GC, idle). */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) {
    // Next's compiled copies of other packages are named by what they are.
    const compiled = /next\/dist\/compiled\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    return `pkg:${inPackage[1]}${compiled ? `/${compiled[1]}` : ''}`;
  }
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
}

function main() {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error('Usage: tsx scripts/cpu-profile-summary.ts <file.cpuprofile> [top]');
    process.exit(1);
  }
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByModule = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = moduleOf(url, functionName);
    total += micros;
    selfByModule.set(owner, (selfByModule.get(owner) ?? 0) + micros);
    const name = `${functionName || '(anonymous)'} ${owner}${url ? `:${lineNumber + 1}` : ''}`;
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + micros);
  });
  const busy = total - (selfByModule.get('(idle)') ?? 0);
  const print = (title: string, entries: Map<string, number>) => {
    console.log(`\n${title}`);
    console.log('  self ms   % busy  name');
    for (const [name, micros] of [...entries]
      .filter(([name]) => !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)) {
      console.log(`${(micros / 1000).toFixed(0).padStart(8)}  ${((micros / busy) * 100).toFixed(1).padStart(6)}   ${name}`);
    }
  };
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s not idle`);
  print('self time by module', selfByModule);
  print('self time by function', selfByFunction);
}

main();
