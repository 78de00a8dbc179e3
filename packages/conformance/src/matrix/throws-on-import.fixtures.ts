// A module whose import throws, like a framework build that is broken or needs a newer Node.
throw new Error('SyntaxError: Unexpected token (a broken build)');
