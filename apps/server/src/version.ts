// The root package.json is the one place a release's version is written: the server, `npm start`
// and the console all read it from there.
import rootPackage from '../../../package.json' with { type: 'json' };

export const PATHWAY_VERSION: string = rootPackage.version;
