CREATE FUNCTION trainee_login(trainee_uid text, password text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text := 'trainee_' || trainee_uid;
BEGIN
    IF trainee_uid !~ '^[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'a trainee id is 32 hex digits, not %', trainee_uid
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainees WHERE uid = trainee_uid) THEN
        RAISE EXCEPTION 'no trainee % has sent results to this class', trainee_uid
            USING ERRCODE = 'no_data_found';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login_name) THEN
        EXECUTE format('ALTER ROLE %I PASSWORD %L', login_name, password);
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE class_trainee', login_name, password);
    END IF;
    UPDATE trainees SET login = login_name WHERE uid = trainee_uid;
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION trainee_login(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION trainee_login(text, text) TO class_instructor
