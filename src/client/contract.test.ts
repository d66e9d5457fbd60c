import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  AssertInputSchema,
  BundleSummary as SchemaBundleSummary,
  DownloadsStatus as SchemaDownloadsStatus,
  FailInput,
  MarkInputSchema,
  RunEndInputSchema,
  RunStartInputSchema,
  Status,
  StepInput,
  WaitForBundleInput as SchemaWaitForBundleInput,
} from '../../schemas/api';
import type { Settings, SettingsPatch as SchemaSettingsPatch } from '../../schemas/settings';
import type { ModelCallInput, ToolCallInput } from '../../schemas/agent-calls';
import type { AutomationApi } from '../recorder/automation-api';
import type {
  AfrApi,
  AssertOptions,
  BundleSummary,
  DownloadsStatus,
  FailOptions,
  MarkOptions,
  RecorderSettings,
  RecorderStatus,
  RunEndOptions,
  RunStartOptions,
  SettingsPatch,
  StepOptions,
  ToolCallOptions,
  ModelCallOptions,
  WaitForBundleInput,
} from './types';

// The client's types are written out by hand (the built client must not import schemas/); these
// checks run in `tsc --noEmit` and fail when the schemas or the automation API drift from them.
describe('client types match the recorder contract', () => {
  it('inputs match the zod input schemas', () => {
    expectTypeOf<FailOptions>().toEqualTypeOf<FailInput>();
    expectTypeOf<StepOptions>().toEqualTypeOf<StepInput>();
    expectTypeOf<AssertOptions>().toEqualTypeOf<z.infer<typeof AssertInputSchema>>();
    expectTypeOf<MarkOptions>().toEqualTypeOf<z.infer<typeof MarkInputSchema>>();
    expectTypeOf<RunStartOptions>().toEqualTypeOf<z.infer<typeof RunStartInputSchema>>();
    expectTypeOf<RunEndOptions>().toEqualTypeOf<z.infer<typeof RunEndInputSchema>>();
    expectTypeOf<WaitForBundleInput>().toEqualTypeOf<SchemaWaitForBundleInput>();
    expectTypeOf<ToolCallOptions>().toEqualTypeOf<ToolCallInput>();
    expectTypeOf<ModelCallOptions>().toEqualTypeOf<ModelCallInput>();
    expectTypeOf<SettingsPatch>().toExtend<SchemaSettingsPatch>();
    expectTypeOf<SchemaSettingsPatch>().toExtend<SettingsPatch>();
  });

  // A field the recorder adds to a result does not break the client (add it to types.ts to expose
  // it); a field it drops or retypes does.
  it('results fit the client’s types', () => {
    expectTypeOf<Status>().toExtend<RecorderStatus>();
    expectTypeOf<SchemaBundleSummary>().toExtend<BundleSummary>();
    expectTypeOf<Settings>().toExtend<RecorderSettings>();
    expectTypeOf<SchemaDownloadsStatus>().toEqualTypeOf<DownloadsStatus>();
    expectTypeOf<Status['downloads']>().toEqualTypeOf<DownloadsStatus>();
  });

  it('every method the service worker already has returns what the client expects', () => {
    // Only the methods both sides have: `afr` is being extended method by method.
    type Common = keyof AfrApi & keyof AutomationApi;
    type Returns<Api extends Record<Common, (...args: never[]) => unknown>> = { [K in Common]: Awaited<ReturnType<Api[K]>> };
    expectTypeOf<Returns<AutomationApi>>().toExtend<Returns<AfrApi>>();
  });
});
