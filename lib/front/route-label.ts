/**
 * The route a request path belongs to, for metric labels: `/video/[streamVideoId]`
 * becomes `/video/:streamVideoId`, so every video shares one label. Routes come
 * from the build's app-path-routes manifest; a path no route names (scans,
 * typos, public files) is `other`, Next's assets `/_next/*`. So the number of
 * labels is the number of routes, whatever clients send.
 *
 * Deliberately plain Node (no Next or app imports): scripts/serve.ts uses it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface CompiledRoute {
  label: string;
  pattern: RegExp;
  /** Sort key: more static segments first, catch-alls last. */
  rank: number[];
}

export const OTHER_ROUTE = 'other';

/** How many paths a labeller remembers the label of. */
const REMEMBERED_PATHS = 2048;

function compile(route: string): CompiledRoute | undefined {
  const segments = route.split('/').filter(Boolean);
  // The site-wide not-found catch-all (app/[...missing]) and Next's own error pages name no route of ours.
  if (segments[0]?.startsWith('[...') || segments[0]?.startsWith('[[...') || route.startsWith('/_')) return undefined;
  let source = '';
  let label = '';
  let statics = 0;
  let catchAll = 0;
  for (const segment of segments) {
    const dynamic = /^\[(\[)?(\.\.\.)?([^\]]+)\]?\]$/.exec(segment);
    if (!dynamic) {
      source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      label += `/${segment}`;
      statics += 1;
    } else if (dynamic[2]) {
      source += dynamic[1] ? '(?:/.*)?' : '/.+';
      label += `/:${dynamic[3]}*`;
      catchAll += 1;
    } else {
      source += '/[^/]+';
      label += `/:${dynamic[3]}`;
    }
  }
  return { label: label || '/', pattern: new RegExp(`^${source || '/'}/?$`), rank: [catchAll, -statics, -segments.length] };
}

/** Builds the labeller from route paths as the manifest lists them (`/video/[streamVideoId]`). */
export function routeLabeller(routes: Iterable<string>): (pathname: string) => string {
  const compiled = [...new Set(routes)]
    .map(compile)
    .filter((route): route is CompiledRoute => route !== undefined)
    .sort((a, b) => a.rank[0]! - b.rank[0]! || a.rank[1]! - b.rank[1]! || a.rank[2]! - b.rank[2]!);
  // Every request is labelled, mostly with a handful of paths: remembered, so the route list is walked once per path.
  // Paths are the client's choice, so the memory is bounded (short paths only; when full it starts over).
  const remembered = new Map<string, string>();
  return (url) => {
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    let label = remembered.get(pathname);
    if (label === undefined) {
      label = pathname.startsWith('/_next/')
        ? '/_next/*'
        : (compiled.find((route) => route.pattern.test(pathname))?.label ?? OTHER_ROUTE);
      if (pathname.length <= 256) {
        if (remembered.size >= REMEMBERED_PATHS) remembered.clear();
        remembered.set(pathname, label);
      }
    }
    return label;
  };
}

/** The labeller of a build (its `.next/app-path-routes-manifest.json`); everything `other` when there is none. */
export function routeLabellerFromBuild(distDir = path.join(process.cwd(), '.next')): (pathname: string) => string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'app-path-routes-manifest.json'), 'utf8')) as Record<
      string,
      string
    >;
    return routeLabeller(Object.values(manifest));
  } catch {
    return routeLabeller([]);
  }
}
