import { createWorker } from "./app";

export default createWorker();
