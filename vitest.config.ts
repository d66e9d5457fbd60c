import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'schemas/**/*.test.ts', 'scripts/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts'],
    restoreMocks: true,
    environment: 'node',
  },
});
