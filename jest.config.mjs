import nextJest from 'next/jest.js';

// next/jest wires SWC, path aliases, CSS/asset mocks and the server-only marker.
const createJestConfig = nextJest({ dir: './' });

const shared = {
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testPathIgnorePatterns: ['/node_modules/', '/.next/', '/e2e/'],
};

const unit = await createJestConfig({
  ...shared,
  displayName: 'unit',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'],
})();

const integration = await createJestConfig({
  ...shared,
  displayName: 'integration',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/integration/**/*.test.ts?(x)'],
})();

// Global, not per project (Jest ignores it there): PGlite's first start in a
// directory initialises a whole cluster, a few seconds on a busy machine.
const config = { projects: [unit, integration], testTimeout: 60_000 };

export default config;
