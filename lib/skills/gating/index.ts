export * from './gating';
export * from './host-target';
