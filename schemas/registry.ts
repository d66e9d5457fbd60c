import type { z } from 'zod';
import { ManifestSchema } from './manifest';
import { UploadIndexRecordSchema } from './upload';
import { DiagnosticsSchema } from './diagnostics';
import { SnapshotFileSchema } from './snapshot';
import { StepSnapshotFileSchema, TimelineDataSchema, TimelineDiffSchema, TimelineSnapshotSchema } from './timeline';
import { StepsFileSchema } from './steps';
import { AgentFileSchema, ModelCallInputSchema, ToolCallInputSchema } from './agent-calls';
import { ReplayFixtureSchema } from './replay-fixture';
import { HarFileSchema } from './network';
import { SettingsSchema } from './settings';
import { PageMessageSchema } from './page-protocol';
import { ToBackgroundMessageSchema, ToContentMessageSchema, ToOffscreenMessageSchema } from './messages';
import {
  StatusSchema,
  BundleSummarySchema,
  FailInputSchema,
  StepInputSchema,
  AssertInputSchema,
  MarkInputSchema,
  RunStartInputSchema,
  RunEndInputSchema,
  WaitForBundleInputSchema,
} from './api';

/** Every schema published as JSON Schema under `schemas/json/<name>.schema.json`. */
export const PUBLISHED_SCHEMAS: Record<string, z.core.$ZodType> = {
  manifest: ManifestSchema,
  diagnostics: DiagnosticsSchema,
  snapshot: SnapshotFileSchema,
  steps: StepsFileSchema,
  settings: SettingsSchema,
  'page-message': PageMessageSchema,
  'message-to-background': ToBackgroundMessageSchema,
  'message-to-content': ToContentMessageSchema,
  'message-to-offscreen': ToOffscreenMessageSchema,
  'api-status': StatusSchema,
  'api-bundle-summary': BundleSummarySchema,
  'api-fail-input': FailInputSchema,
  'api-step-input': StepInputSchema,
  'api-assert-input': AssertInputSchema,
  'api-mark-input': MarkInputSchema,
  'api-run-start-input': RunStartInputSchema,
  'api-run-end-input': RunEndInputSchema,
  'api-wait-for-bundle-input': WaitForBundleInputSchema,
  'api-tool-call-input': ToolCallInputSchema,
  'api-model-call-input': ModelCallInputSchema,
  agent: AgentFileSchema,
  'replay-fixture': ReplayFixtureSchema,
  timeline: TimelineDataSchema,
  'timeline-snapshot': TimelineSnapshotSchema,
  'timeline-diff': TimelineDiffSchema,
  'step-snapshot': StepSnapshotFileSchema,
  'upload-index': UploadIndexRecordSchema,
  'network-har': HarFileSchema,
};

/** The JSON Schema file each bundle file is checked against. */
export const BUNDLE_FILE_SCHEMAS: Record<string, z.ZodType> = {
  'manifest.json': ManifestSchema,
  'diagnostics.json': DiagnosticsSchema,
  'snapshot.json': SnapshotFileSchema,
  'steps.json': StepsFileSchema,
  'network.har': HarFileSchema,
  'agent.json': AgentFileSchema,
};
