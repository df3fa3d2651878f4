// Starts verdaccio from its library entry, in this Node, with no CLI around it:
// node verdaccio-server.mjs <config.yaml> <port>. Prints "listening" once it accepts connections.
import { runServer } from 'verdaccio';

const [configFile, port] = process.argv.slice(2);
const app = await runServer(configFile);
app.listen(Number(port), '127.0.0.1', () => console.log('listening'));
