/** Organisations and their sites: who runs the programme where. */
export { organisationRoutes } from './routes.js';
