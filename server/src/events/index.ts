export { EventBus, type Phase } from "./bus.js";
export type { DomainEvent, DomainEvents, EventName } from "./catalog.js";
