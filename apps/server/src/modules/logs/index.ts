export { logRoutes } from './routes.js';
