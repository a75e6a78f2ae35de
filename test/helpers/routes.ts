import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every route module under app/, as paths relative to app/ (e.g. `api/videos/[streamVideoId]/route.ts`). */
export function routeFiles(dir = path.join(process.cwd(), 'app'), prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) return routeFiles(full, relative);
    return name === 'route.ts' ? [relative] : [];
  });
}
