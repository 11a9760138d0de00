export * from './runtime-settings';
export * from './store';
export * from './github-settings';
export * from './github-store';
export * from './skills-settings';
