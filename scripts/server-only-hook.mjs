// Lets Node (tsx in development, benchmarks) load modules marked `import 'server-only'`: the
// package throws unless resolved with React's server condition, which only Next's bundler applies.
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'server-only') return { url: 'data:text/javascript,', shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
