'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const createGatewayAction = action(ops.createGateway);
export const updateGatewayAction = action(ops.updateGateway);
export const deleteGatewayAction = action(ops.deleteGateway);
export const testGatewayAction = action(ops.testGateway);
export const adoptGatewayAction = action(ops.adoptGateway);
export const syncGatewayAction = action(ops.syncGateway);
export const forgetFolderClientAction = action(ops.forgetFolderClient);
