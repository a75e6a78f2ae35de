import nextJest from 'next/jest.js';

// next/jest wires SWC, path aliases, CSS/asset mocks and the server-only marker.
const createJestConfig = nextJest({ dir: './' });

const shared = {
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testPathIgnorePatterns: ['/node_modules/', '/.next/', '/e2e/'],
};

/**
 * Integration files that cannot share the machine with another file running at once, so they run in a project of
 * their own, one at a time, after the rest (decision 047). Every other integration file has its own databases
 * (copies of the template), DATA_DIR, ports (0: the system picks) and child processes, and runs on the workers.
 */
const SERIAL_INTEGRATION = [
  // `npm run build` into .next and `npm start` on E2E_PORT (scripts/lib/e2e-env.ts), as the e2e suite does.
  'production-start',
  'orphan-processes',
  // Servers of their own on fixed ports.
  'several-web-processes',
  'database-connection-loss',
  'metrics',
  // Measure time: a lease running out mid-transcode, answers as fast for unknown addresses as for known ones.
  'job-leases',
  'password-reset',
];
const serialFiles = `**/test/integration/{${SERIAL_INTEGRATION.join(',')}}.test.ts`;

// The migrated template databases each test file copies, made once per run before the workers start.
const integrationShared = { ...shared, testEnvironment: 'node', globalSetup: '<rootDir>/test/helpers/integration-setup.ts' };

const unit = await createJestConfig({
  ...shared,
  displayName: 'unit',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'],
})();

const integration = await createJestConfig({
  ...integrationShared,
  displayName: 'integration',
  testMatch: ['<rootDir>/test/integration/**/*.test.ts?(x)', `!${serialFiles}`],
})();

const integrationSerial = await createJestConfig({
  ...integrationShared,
  displayName: 'integration-serial',
  testMatch: [serialFiles],
})();

// Global, not per project (Jest ignores it there): PGlite's first start in a
// directory initialises a whole cluster, a few seconds on a busy machine.
const config = {
  projects: [unit, integration, integrationSerial],
  testTimeout: 60_000,
  // Per-file durations, the slowest printed at the end and all written to reports/ (test/helpers/timing-reporter.mjs).
  reporters: ['default', '<rootDir>/test/helpers/timing-reporter.mjs'],
};

export default config;
