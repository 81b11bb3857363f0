/** Admin accounts: the console's routes, and the service the CLI and the first start create admins with. */
export { adminRoutes } from './routes.js';
export { AdminService, COMMAND_LINE, type AdminManager } from './service.js';
