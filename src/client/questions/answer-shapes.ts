import { each, fields, oneOf, optional, present, record, type Shape, shape, string } from '../../protocol/shapes.js';

// The shapes a hook's answer must have before it goes to the server (checked
// by hand: see protocol/shapes.ts), one for each kind of question.

const action = oneOf(['accept', 'decline', 'cancel']);

/** An `onElicit` answer: an action, and for a form the content as a plain object. */
export const elicitAnswer: Shape = shape(fields({ action, content: optional(record) }));

/** An `onElicitUrl` answer: an action alone (anything else is dropped before it is sent). */
export const elicitUrlAnswer: Shape = shape(fields({ action }));

/** An `onSample` answer: a role, some content (checked further by sampling-checks.ts) and the model. */
export const sampleAnswer: Shape = shape(fields({ role: string, content: present, model: string }));

/** An `onListRoots` answer: the roots, each with its URI (checked further by roots.ts). */
export const rootsAnswer: Shape = shape(fields({ roots: each(fields({ uri: string })) }));
