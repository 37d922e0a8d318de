// Vitest setup of every relay test file: no relay a test started outlives its file.
import { afterAll } from "vitest";
import { killRunningRelays } from "../testing/index.js";

afterAll(killRunningRelays);
