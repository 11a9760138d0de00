/** The text of a thrown value: an Error's message (an ApiError's is written for people), anything else as a string. */
export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
