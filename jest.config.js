/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testTimeout: 30000,
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  reporters: ['default', '<rootDir>/tests/support/summary-reporter.js'],
};
