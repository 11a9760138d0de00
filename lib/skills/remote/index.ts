/** Remote skill sources: each fetcher only brings bytes into a private staging location. */

export { type ClawhubClient, type ClawhubClientOptions, createClawhubClient, isBlockedVerdict } from './clawhub';
export { parseAmbiguousOwners, retryAfterSeconds } from './clawhub-http';
export { formatSkillRef, parseSkillRef, type SkillRef, validateHash, validateOwner, validateSlug, validateVersion } from './clawhub-ref';
export * from './clawhub-types';
export { fetchGitSkill, type GitFetchInput, type GitFetchPolicy, type GitFetchResult, listRemoteRefs, type RemoteRef } from './git';
export { parseGitRemote, validateRef, validateSubdir } from './git-input';
export { blockedRange, checkUrlSyntax, checkUrlTarget, hostMatches, type Resolver, type SsrfPolicy, type VettedTarget } from './ssrf';
export { type FetchedFile, type FetchPolicy, fetchIfChanged, fetchToFile, type Validators } from './url';
