export * from './github-settings';
export * from './github-store';
export * from './import-policy';
export * from './policy-settings';
export * from './runtime-settings';
export * from './skills-settings';
export * from './store';
export * from './terminal-settings';
