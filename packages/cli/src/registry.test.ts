// The registry (src/commands/index.ts) is the one list of commands: every module under src/commands/
// is in it, `neutral --help` lists exactly its commands, `neutral <command> --help` shows each one's
// own help, and every command object carries its help text and its options. In process: no relay.
import { readdirSync } from "node:fs";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "./cli.js";
import type { Command } from "./command.js";
import { COMMANDS, commandNamed } from "./commands/index.js";
import { commandHelp, commandSignature } from "./help.js";

/** Runs `neutral …args` in this process, with no NEUTRAL_* variable; what it printed, and its exit code. */
async function neutral(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await main(args, {}, { stdout: sink((text) => (stdout += text)), stderr: sink((text) => (stderr += text)) });
  return { code, stdout, stderr };
}

/** The names in the "Commands:" section of `neutral --help`, in its order. */
function listedCommands(help: string): string[] {
  const section = help.split("\nCommands:\n")[1]?.split("\n\n")[0];
  if (section === undefined) throw new Error(`no Commands: section in\n${help}`);
  return section.split("\n").map((line) => /^ {2}(\S+)/.exec(line)?.[1] ?? `(not a command line: ${JSON.stringify(line)})`);
}

const names = COMMANDS.map((command) => command.name);

describe("the command registry", () => {
  it("names each command once, and finds each by its name", () => {
    expect(new Set(names).size).toBe(names.length);
    for (const command of COMMANDS) {
      expect(command.name).toMatch(/^[a-z][a-z-]*$/);
      expect(commandNamed(command.name)).toBe(command);
    }
    expect(commandNamed("frobnicate")).toBeUndefined();
    expect(commandNamed("toString")).toBeUndefined();
  });

  it("holds every command module under src/commands/, each named as its file", async () => {
    const files = readdirSync(new URL("./commands/", import.meta.url)).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && file !== "index.ts");
    expect(files.map((file) => file.replace(/\.ts$/, "")).sort()).toEqual([...names].sort());
    for (const base of files.map((file) => file.replace(/\.ts$/, ""))) {
      const module = (await import(/* @vite-ignore */ new URL(`./commands/${base}.ts`, import.meta.url).href)) as Record<string, unknown>;
      const exported = Object.values(module).filter((value): value is Command => COMMANDS.includes(value as Command));
      expect(exported.map((command) => command.name), `src/commands/${base}.ts exports the registry's command`).toEqual([base]);
    }
  });

  it("is what `neutral --help` lists, in its order", async () => {
    const result = await neutral("--help");
    expect(result.code).toBe(0);
    expect(listedCommands(result.stdout)).toEqual(names);
    for (const command of COMMANDS) expect(result.stdout).toContain(`  ${commandSignature(command)}`);
    for (const command of COMMANDS) expect(result.stdout).toContain(command.summary);
  });

  it("is what the dispatcher knows: `neutral <command> --help` is each command's own help, anything else is unknown", async () => {
    for (const command of COMMANDS.filter((command) => !command.passThrough)) {
      for (const args of [[command.name, "--help"], ["-h", command.name]]) {
        const result = await neutral(...args);
        expect(result, args.join(" ")).toEqual({ code: 0, stdout: `${commandHelp(command)}\n`, stderr: "" });
      }
    }
    expect(await neutral("frobnicate")).toEqual({ code: 2, stdout: "", stderr: 'neutral: unknown command "frobnicate" (see neutral --help)\n' });
  });
});

describe.each(COMMANDS.map((command) => [command.name, command] as const))("neutral %s", (name, command) => {
  it("has a summary and help text: usage, details", () => {
    expect(command.summary.trim()).not.toBe("");
    expect(command.help.usage.startsWith(`neutral ${name}`)).toBe(true);
    expect(command.help.details.length).toBeGreaterThan(0);
    for (const line of command.help.details) expect(line.trim()).not.toBe("");
    for (const positional of command.positionals) expect(command.help.usage).toContain(`<${positional}>`);
    const help = commandHelp(command);
    expect(help.startsWith(`neutral ${name}: ${command.summary}\n\nUsage: ${command.help.usage}\n`)).toBe(true);
    expect(help).toContain("\nOptions:\n");
  });

  it("has options, each with a label and help that its usage and its help list", () => {
    const options = Object.entries(command.options);
    // A command whose arguments are someone else's (serve: the relay's) says so under Options instead.
    if (command.passThrough) expect(command.help.notes?.length ?? 0).toBeGreaterThan(0);
    else expect(options.length).toBeGreaterThan(0);
    const help = commandHelp(command);
    for (const [option, spec] of options) {
      expect(spec.label.split(" ")[0], option).toBe(`--${option}`);
      expect(spec.help.length, option).toBeGreaterThan(0);
      for (const line of spec.help) expect(line.trim(), option).not.toBe("");
      expect(command.help.usage, option).toContain(`[--${option}`);
      expect(help, option).toContain(`  ${spec.label}  `);
    }
    const usageOptions = [...command.help.usage.matchAll(/\[(--[a-z-]+)/g)].map((match) => match[1]);
    expect(usageOptions.sort()).toEqual(options.map(([option]) => `--${option}`).sort());
  });
});
