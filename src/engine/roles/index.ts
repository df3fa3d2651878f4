/** engine/roles: its public face — what other folders may use of it. */
export { asReviewerOf, loadRoleProfile, RoleProfile, reviewerOf, seatsOf } from './role-profile.ts';
export { type RoleProgress, RoleRuntime, type RoleStatus } from './role-runtime.ts';
export { stateName } from './state-name.ts';
