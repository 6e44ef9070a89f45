export { type DurableJob, type DurableJobs, type DurableKind, EventBus, type Phase, type Publish, type Written } from "./bus.js";
export type { DomainEvent, DomainEvents, EventName } from "./catalog.js";
export type { Audience } from "./audience.js";
export type { RecordArea } from "./records.js";
