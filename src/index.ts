/**
 * airlock: shape every tool result before it reaches the model.
 *
 * @example
 * import { shape, toOpenAIChat } from "agent-airlock";
 * const shaped = await shape(await fetch(url), { maxTokens: 2000, tool: "fetch" });
 * messages.push(toOpenAIChat(shaped, { toolCallId }));
 */

export * from "./adapters/index.js";
export type { ContractCode, ContractOptions, Invariants, Schema } from "./contract/contract.js";
export {
  DEFAULT_JSON_LIMITS,
  type JsonErrorCode,
  type JsonLimits,
  type JsonParsed,
  type JsonValue,
  parseJson,
} from "./decode/json.js";
export { DEFAULT_STRUCTURED_LIMITS, type StructuredLimits } from "./decode/limits.js";
export { AirlockError } from "./errors/airlock-error.js";
export type { AirlockErrorCode, SafeErrorCode, ShapedErrorCode } from "./errors/codes.js";
export { COMPACT_FENCE_BELOW } from "./fence/fence.js";
export {
  applySpotlight,
  DEFAULT_DATAMARK,
  datamark,
  encodeBase64,
  type SpotlightInstructionOptions,
  type SpotlightMode,
  spotlightInstruction,
} from "./fence/spotlight.js";
export type { HopStatus, SummarizeInput, Summarizer } from "./fit/hop.js";
export type { TokenCounter, TokenizerName } from "./fit/tokenizer.js";
export type { HtmlInput, HtmlText, HtmlToTextOptions } from "./html/html-to-text.js";
export { htmlToText } from "./html/index.js";
export type { Link } from "./html/render.js";
export type { Removed as HtmlRemoved } from "./html/tree.js";
export type { CapturedCommand } from "./intake/attach.js";
export {
  fromProcess,
  type NodeChildProcessLike,
  type ProcessLike,
  type WebChildProcessLike,
} from "./intake/process.js";
export type { Aggregates, FieldAggregate } from "./keep/aggregate.js";
export type {
  CallOptions,
  CommandOutput,
  InputFormat,
  ShapeInput,
  ShapeOptions,
  ShapeRedactOptions,
  StreamSource,
} from "./options/compile.js";
export {
  DEFAULT_HASH_LIMIT,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_TOKENS,
  MIN_MAX_TOKENS,
  MIN_READ_TOKENS,
} from "./options/compile.js";
export { type EdgePreset, edgePreset } from "./options/edge.js";
export {
  type BinaryInfo,
  type Cut,
  type EvidenceCut,
  type EvidenceMeta,
  type ReadArgs,
  type ReadMeta,
  type SectionMeta,
  type SectionName,
  type Shaped,
  type ShapedMeta,
  type ShapedStatus,
  type ShapedTelemetry,
  type ShapeSummary,
  type StructuredMeta,
  type SummaryPoint,
  type Symptom,
  type TelemetryCut,
  type TelemetrySize,
  tokensOf,
} from "./pipeline/shaped.js";
export {
  createResultReader,
  READ_RESULT_TOOL,
  READ_RESULT_TOOL_STRICT,
  type ReadResultArgs,
  type ResultReader,
  type ResultReaderOptions,
  readResultZodShape,
  type ZodLike,
} from "./reader.js";
export {
  type FingerprintedFinding,
  type FingerprintKey,
  redactWithFingerprints,
} from "./redact/fingerprint.js";
export { type Cleaned, type InvisibleCounts, stripInvisible } from "./redact/invisible.js";
export {
  createRedactor,
  type Finding,
  type Redacted,
  type RedactOptions,
  type Redactor,
  redact,
} from "./redact/redact.js";
export type { SecretRule } from "./redact/rules.js";
export type { EnvelopeMode } from "./render/envelope.js";
export { type AllocateOptions, allocate } from "./round/allocate.js";
export {
  type Ceiling,
  ceilingOf,
  type RoundCeiling,
  type RoundCeilingOptions,
} from "./round/ceiling.js";
export type { RoundCall, RoundOptions } from "./round/options.js";
export { type BudgetInputs, type BudgetPlan, planBudget } from "./round/plan.js";
export {
  type CompiledShaper,
  compileShaper,
  createShaper,
  type Prepared,
  type Shaper,
  shape,
} from "./shape.js";
export {
  DEFAULT_MAX_MESSAGE_LENGTH,
  type DescribeErrorOptions,
  describeError,
  type SafeError,
  type ShapeErrorOptions,
  shapeError,
} from "./shape-error.js";
export { createRoundShaper, type RoundShaper, shapeRound } from "./shape-round.js";
export {
  createSession,
  type Level as SessionLevel,
  type Session,
  type SessionCall,
  type SessionOptions,
  type SessionState,
  type SessionStats,
  type ViewEntry,
  type ViewStat,
} from "./shape-session.js";
export { type CombinedStoreOptions, createCombinedStore } from "./store/combined.js";
export {
  createIndexedDbStore,
  createIndexedDbStores,
  type IdbDatabaseLike,
  type IdbFactoryLike,
  type IndexedDbResultStore,
  type IndexedDbStoreOptions,
} from "./store/indexeddb.js";
export {
  createKvStore,
  type KvNamespaceLike,
  type KvResultStore,
  type KvStoreOptions,
} from "./store/kv.js";
export { SERVICE_LIMITS } from "./store/limits.js";
export {
  createMemoryStore,
  type MemoryResultStore,
  type MemoryStoreOptions,
} from "./store/memory.js";
export {
  createPendingStore,
  type PendingStore,
  type PendingStoreOptions,
} from "./store/pending.js";
export {
  createR2Store,
  type R2BucketLike,
  type R2ObjectBodyLike,
  type R2ObjectLike,
  type R2ResultStore,
  type R2StoreOptions,
} from "./store/r2.js";
export type { ScopeOptions as StoreScopeOptions } from "./store/scope.js";
export {
  createSealedStore,
  importSealKey,
  type OpenedArtifact,
  type SealedRef,
  type SealedStore,
  type SealedStoreOptions,
  type SealKey,
} from "./store/sealed.js";
export type {
  ResultStore,
  StoredInfo,
  StoredPart,
  StoredRecords,
  StoredResult,
  StoredSection,
  StoredText,
  Where,
  WhereTest,
} from "./store/store.js";
export { EXACT_BEFORE_BYTES } from "./telemetry/before.js";
export {
  type AttributeValue,
  recordOnSpan,
  type SpanLike,
  type SpanOptions,
  telemetryAttributes,
} from "./telemetry/span.js";
