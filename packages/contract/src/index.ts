export * from './messages.js';
export * from './roles.js';
export * from './limits.js';
export * from './common.js';
export * from './auth.js';
export * from './admin.js';
export * from './logs.js';
export * from './videos.js';
