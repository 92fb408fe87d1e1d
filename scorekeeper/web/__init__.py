"""The web app: the Flask factory, forms, access checks, responses, and the views as blueprints (``views/``)."""
