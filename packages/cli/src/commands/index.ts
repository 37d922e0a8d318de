// Every command of `neutral`, in the order `neutral --help` lists them. The dispatcher (cli.ts) and the
// help texts (help.ts) read this list and nothing else: a command is added here, and nowhere else.
import type { Command } from "../command.js";
import { allow } from "./allow.js";
import { audit } from "./audit.js";
import { block } from "./block.js";
import { chat } from "./chat.js";
import { consent } from "./consent.js";
import { deleteCommand } from "./delete.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { inbox } from "./inbox.js";
import { keygen } from "./keygen.js";
import { prove } from "./prove.js";
import { send } from "./send.js";
import { serve } from "./serve.js";
import { unblock } from "./unblock.js";
import { verifyExport } from "./verify-export.js";
import { verifyProofCommand } from "./verify-proof.js";
import { watch } from "./watch.js";
import { whoami } from "./whoami.js";

export const COMMANDS: readonly Command[] = [keygen, whoami, send, inbox, chat, watch, exportCommand, verifyExport, verifyProofCommand, audit, prove, importCommand, consent, allow, block, unblock, deleteCommand, serve];

const BY_NAME = new Map(COMMANDS.map((command) => [command.name, command]));

/** The command called `name`, if there is one. */
export function commandNamed(name: string): Command | undefined {
  return BY_NAME.get(name);
}
