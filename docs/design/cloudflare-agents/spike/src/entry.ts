// Bundle entry: the prelude MUST be the first import (it patches timers before
// any framework module body runs).
import { instrument, withControl } from "./prelude";
import * as W from "./worker";

export const ChatAgent = instrument(W.ChatAgent);
export const ChatAgentNoRecovery = instrument(W.ChatAgentNoRecovery);
export default withControl(W.default);
