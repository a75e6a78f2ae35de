/** `npm run app-scripts`: rewrites lib/app-scripts/generated.ts from lib/app-scripts/source/ (scripts/lib/app-scripts.ts). */
import { GENERATED_FILE, writeAppScripts } from './lib/app-scripts';

console.log(writeAppScripts() ? `[app-scripts] wrote ${GENERATED_FILE}` : '[app-scripts] up to date');
