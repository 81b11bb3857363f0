/**
 * Push messages to the tablets: the outbox every sender writes to (in its own transaction), the
 * delivery job and its providers (FCM), staff's messages and what became of them.
 */
export { PUSH_DELIVER_JOB, pushDeliveryJob, requestPushDelivery } from './delivery.js';
export { enqueuePush, queuedPushesSql, type PushKind, type QueuedPushSelect } from './outbox.js';
export { pushRoutes } from './routes.js';
